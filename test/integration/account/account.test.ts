import { describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { describeAuthMatrix, expectError } from "../../helpers/security";

const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;

describe("GET /v1/account", () => {
  describe("happy path", () => {
    it("a test key sees its account with live false and exactly the documented fields", async () => {
      const account = await createAccount({ name: "Ñandú Global Ltd", taxRegime: "global" });
      const res = await client(account.testKey).get("/v1/account");
      expectStatus(res, 200);
      expect(res.body).toEqual({
        id: account.id,
        object: "account",
        live: false,
        name: "Ñandú Global Ltd",
        tax_regime: "global",
        default_payment_instructions: [],
        legal_name: null,
        tax_id: null,
        address: null,
        einvoicing: { peppol_id: null },
        simplified_invoices: { limit: "400.00", basis: "art_4_1", reference: null },
        verifactu: { representation: null },
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(res.headers.get("request-id")).toMatch(/^req_/);
    });

    it("a live key sees the same account with live true", async () => {
      const account = await createAccount({ name: "Acme Servicios SL", taxRegime: "es" });
      const test = await client(account.testKey).get("/v1/account");
      const live = await client(account.liveKey).get("/v1/account");
      expectStatus(live, 200);
      expect(live.body).toMatchObject({ id: account.id, live: true, tax_regime: "es" });
      expect({ ...live.body, live: false }).toEqual(test.body);
    });

    it("each key sees its own account, never another", async () => {
      const first = await createAccount({ name: "First" });
      const second = await createAccount({ name: "Second" });
      expect((await client(first.testKey).get("/v1/account")).body).toMatchObject({
        id: first.id,
        name: "First",
      });
      expect((await client(second.liveKey).get("/v1/account")).body).toMatchObject({
        id: second.id,
        name: "Second",
      });
    });
  });

  describe("errors", () => {
    it("/v1/account/:id is not a route: 404", async () => {
      const account = await createAccount();
      expectError(await client(account.testKey).get(`/v1/account/${account.id}`), 404, "resource_missing");
    });
  });
});

describe("security", () => {
  describeAuthMatrix({ method: "GET", path: () => "/v1/account" });
});

describe("PATCH /v1/account: the issuer profile (invoices.md)", () => {
  const address = { line_1: "Calle Mayor 1", city: "Madrid", postal_code: "28013", country: "ES" };

  it("legal_name: up to 256 characters; 257 is 400 param legal_name and changes nothing; null clears", async () => {
    const api = client((await createAccount({ taxRegime: "es" })).testKey);
    expectStatus(await api.patch("/v1/account", { legal_name: "L".repeat(256) }), 200);
    expectError(
      await api.patch("/v1/account", { legal_name: "M".repeat(257) }),
      400,
      "parameter_invalid",
      "legal_name",
    );
    expect((await api.get("/v1/account")).body.legal_name).toBe("L".repeat(256));
    expectStatus(await api.patch("/v1/account", { legal_name: null }), 200);
    expect((await api.get("/v1/account")).body.legal_name).toBeNull();
  });

  it("address: a first address must be complete (400 naming the missing field, nothing written)", async () => {
    const api = client((await createAccount({ taxRegime: "es" })).testKey);
    const res = await api.patch("/v1/account", { address: { line_1: "Calle Mayor 1", country: "ES" } });
    expectStatus(res, 400);
    expect(res.body.error.param).toMatch(/^address\.(city|postal_code)$/);
    expect((await api.get("/v1/account")).body.address).toBeNull();
  });

  it("address: a partial update merges into the current address, and null clears it", async () => {
    const api = client((await createAccount({ taxRegime: "es" })).testKey);
    expectStatus(await api.patch("/v1/account", { address }), 200);
    const merged = await api.patch("/v1/account", { address: { city: "Bilbao", postal_code: "48001" } });
    expectStatus(merged, 200);
    expect(merged.body.address).toMatchObject({ ...address, city: "Bilbao", postal_code: "48001" });
    expectStatus(await api.patch("/v1/account", { address: null }), 200);
    expect((await api.get("/v1/account")).body.address).toBeNull();
  });

  it("the profile is per environment: the live profile is untouched by a test PATCH", async () => {
    const account = await createAccount({ taxRegime: "es" });
    expectStatus(await client(account.testKey).patch("/v1/account", { legal_name: "Test SL", address }), 200);
    const live = (await client(account.liveKey).get("/v1/account")).body;
    expect(live).toMatchObject({ legal_name: null, address: null });
  });
});
