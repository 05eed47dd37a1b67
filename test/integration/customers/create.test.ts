import { beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  fullAddress,
  type TestAccount,
  validAddress,
  validCustomer,
} from "../../helpers/factories";
import { expectError } from "../../helpers/security";

const customerCount = (accountId: string) => countRows("customers", accountId);

describe("POST /v1/customers", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  describe("happy path", () => {
    it("creates a customer with every field and returns 201 with the customer object", async () => {
      const res = await api.post("/v1/customers", {
        name: "Acme Servicios SL",
        invoice_prefix: "acme1",
        tax_id: { country: "es", type: "es_nif", value: "b-1234.5674" },
        email: "billing@acme.example",
        phone: "+34 600 000 000",
        address: { ...fullAddress, country: "es" },
      });
      expectStatus(res, 201);
      const c = res.body;
      expect(c.id).toMatch(/^cus_[0-9A-Z]{26}$/);
      expect(c).toMatchObject({
        object: "customer",
        live: false,
        name: "Acme Servicios SL",
        invoice_prefix: "ACME1",
        email: "billing@acme.example",
        phone: "+34 600 000 000",
        address: fullAddress,
      });
      expect(c.tax_id).toEqual({
        id: expect.stringMatching(/^txi_[0-9A-Z]{26}$/),
        object: "tax_id",
        live: false,
        country: "ES",
        type: "es_nif",
        value: "B12345674",
        owner: { type: "customer", id: c.id },
        // An es_nif of an es account, in Test mode: the sandbox checks it after the response.
        verification: {
          status: "pending",
          valid: null,
          completed_at: null,
          verified_name: null,
          verified_address: null,
        },
      });
      expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(c.updated_at).toBe(c.created_at);
      expect(res.headers.get("request-id")).toMatch(/^req_/);
    });

    it("a created customer reads back exactly as it was returned", async () => {
      const created = await api.post("/v1/customers", validCustomer);
      const read = await api.get(`/v1/customers/${created.body.id}`);
      expectStatus(read, 200);
      expect(read.body).toEqual(created.body);
    });

    it("email, phone and address are null when omitted", async () => {
      const res = await api.post("/v1/customers", validCustomer);
      expectStatus(res, 201);
      expect(res.body).toMatchObject({ email: null, phone: null, address: null });
    });

    it("optional address fields line_2 and state are null when omitted", async () => {
      const res = await api.post("/v1/customers", { ...validCustomer, address: validAddress });
      expectStatus(res, 201);
      expect(res.body.address).toEqual({ ...validAddress, line_2: null, state: null });
    });

    it("a live key creates a live customer", async () => {
      const res = await client(account.liveKey).post("/v1/customers", validCustomer);
      expectStatus(res, 201);
      expect(res.body.live).toBe(true);
      expect(res.body.tax_id.live).toBe(true);
    });

    it("accepted strings read back exactly as sent, including non-ASCII", async () => {
      const name = "Ñandú & Cía. — 株式会社 🚀";
      const res = await api.post("/v1/customers", { ...validCustomer, name });
      expectStatus(res, 201);
      expect(res.body.name).toBe(name);
      expect((await api.get(`/v1/customers/${res.body.id}`)).body.name).toBe(name);
    });
  });

  describe("invoice_prefix", () => {
    it("a generated invoice_prefix is six letters A-Z without I and O", async () => {
      const prefixes = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const res = await api.post("/v1/customers", validCustomer);
        expectStatus(res, 201);
        expect(res.body.invoice_prefix).toMatch(/^[A-HJ-NP-Z]{6}$/);
        prefixes.add(res.body.invoice_prefix);
      }
      expect(prefixes.size).toBe(20);
    });

    it("a generated invoice_prefix is retried on collision, and after 5 collisions the request is a 500 that writes nothing", async () => {
      const own = await createAccount();
      const owned = client(own.testKey);
      expectStatus(await owned.post("/v1/customers", { ...validCustomer, invoice_prefix: "AAAAAA" }), 201);
      // Zero bytes make the generator draw "AAAAAA" (only the prefix generator asks for 8 bytes).
      const real = crypto.getRandomValues.bind(crypto);
      let collisions = 2;
      const draws = vi.spyOn(crypto, "getRandomValues").mockImplementation(((array: Uint8Array) => {
        if (array.length !== 8 || collisions === 0) return real(array);
        collisions--;
        return array.fill(0);
      }) as typeof crypto.getRandomValues);
      const retried = await owned.post("/v1/customers", validCustomer);
      expectStatus(retried, 201);
      expect(retried.body.invoice_prefix).toMatch(/^[A-HJ-NP-Z]{6}$/);
      expect(retried.body.invoice_prefix).not.toBe("AAAAAA");
      expect(collisions).toBe(0);

      collisions = Number.POSITIVE_INFINITY;
      const before = await customerCount(own.id);
      const exhausted = await owned.post("/v1/customers", validCustomer);
      expectError(exhausted, 500, "api_error");
      expect(exhausted.body.error.message).toBe(
        "Could not generate a unique invoice_prefix; retry the request.",
      );
      expect(await customerCount(own.id)).toBe(before);
      draws.mockRestore();
    });

    it("a supplied invoice_prefix is uppercased", async () => {
      const res = await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "abc123" });
      expectStatus(res, 201);
      expect(res.body.invoice_prefix).toBe("ABC123");
    });

    it.each([
      ["too short", "AB"],
      ["too long", "ABCDEFGHIJKLM"],
      ["a hyphen (the series joiner)", "AB-CD"],
      ["a space", "AB CD"],
      ["non-ASCII letters", "ÑANDU"],
      ["an empty string", ""],
    ])("a supplied invoice_prefix with %s is rejected", async (_, prefix) => {
      const before = await customerCount(account.id);
      const res = await api.post("/v1/customers", { ...validCustomer, invoice_prefix: prefix });
      expectStatus(res, 400);
      expect(res.body.error).toMatchObject({ type: "invalid_request_error", param: "invoice_prefix" });
      expect(await customerCount(account.id)).toBe(before);
    });

    it("invoice_prefix must be unique within the account and environment: 409", async () => {
      expectStatus(await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "DUP1" }), 201);
      const res = await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "dup1" });
      expectStatus(res, 409);
      expect(res.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "invoice_prefix_taken",
        param: "invoice_prefix",
      });
    });

    it("the same invoice_prefix is allowed in the other environment and in another account", async () => {
      expectStatus(await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "SHARED" }), 201);
      const live = await client(account.liveKey).post("/v1/customers", {
        ...validCustomer,
        invoice_prefix: "SHARED",
      });
      expectStatus(live, 201);
      const other = await createAccount();
      const res = await client(other.testKey).post("/v1/customers", {
        ...validCustomer,
        invoice_prefix: "SHARED",
      });
      expectStatus(res, 201);
    });

    it("concurrent creates with one invoice_prefix give exactly one 201 and 409s, never a 500", async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          api.post("/v1/customers", { ...validCustomer, invoice_prefix: "RACE01" }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    });
  });
});
