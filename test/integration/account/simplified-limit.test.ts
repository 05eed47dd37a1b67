/**
 * account.md, "The simplified-invoice limit": `simplified_invoices` per environment, its
 * limit/basis pairs (RD 1619/2012 art. 4), the reference rule and the reset to the default.
 */
import { describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { expectError } from "../../helpers/security";

const DEFAULT = { limit: "400.00", basis: "art_4_1", reference: null };

async function esAccount() {
  const account = await createAccount({ taxRegime: "es" });
  return { test: client(account.testKey), live: client(account.liveKey) };
}

async function setLimit(api: ApiClient, value: unknown) {
  const res = await api.patch("/v1/account", { simplified_invoices: value });
  expectStatus(res, 200);
  return res.body.simplified_invoices;
}

async function current(api: ApiClient) {
  const res = await api.get("/v1/account");
  expectStatus(res, 200);
  return res.body;
}

describe("simplified_invoices on the account", () => {
  it("an account that never set it reads the default 400.00 / art_4_1", async () => {
    const { test, live } = await esAccount();
    expect((await current(test)).simplified_invoices).toEqual(DEFAULT);
    expect((await current(live)).simplified_invoices).toEqual(DEFAULT);
  });

  it("3000.00 with art_4_2, with or without a reference", async () => {
    const { test } = await esAccount();
    expect(await setLimit(test, { limit: "3000.00", basis: "art_4_2" })).toEqual({
      limit: "3000.00",
      basis: "art_4_2",
      reference: null,
    });
    const withNote = { limit: "3000.00", basis: "art_4_2", reference: "Comercio minorista (art. 4.2.a)" };
    expect(await setLimit(test, withNote)).toEqual(withNote);
    expect((await current(test)).simplified_invoices).toEqual(withNote);
  });

  it("aeat_authorisation requires its reference: 400 parameter_missing simplified_invoices.reference", async () => {
    const { test } = await esAccount();
    for (const reference of [undefined, null]) {
      const res = await test.patch("/v1/account", {
        simplified_invoices: { limit: "3000.00", basis: "aeat_authorisation", reference },
      });
      expectError(res, 400, "parameter_missing", "simplified_invoices.reference");
    }
    const set = { limit: "3000.00", basis: "aeat_authorisation", reference: "AEAT 2026/000123" };
    expect(await setLimit(test, set)).toEqual(set);
  });

  it("art_4_1 takes no reference: 400 parameter_invalid simplified_invoices.reference", async () => {
    const { test } = await esAccount();
    const res = await test.patch("/v1/account", {
      simplified_invoices: { limit: "400.00", basis: "art_4_1", reference: "x" },
    });
    expectError(res, 400, "parameter_invalid", "simplified_invoices.reference");
    expect(await setLimit(test, { limit: "400.00", basis: "art_4_1", reference: null })).toEqual(DEFAULT);
  });

  it("a limit that does not match its basis is 400 parameter_invalid simplified_invoices.limit", async () => {
    const { test } = await esAccount();
    for (const value of [
      { limit: "3000.00", basis: "art_4_1" },
      { limit: "400.00", basis: "art_4_2" },
      { limit: "400.00", basis: "aeat_authorisation", reference: "AEAT 1" },
    ]) {
      expectError(
        await test.patch("/v1/account", { simplified_invoices: value }),
        400,
        "parameter_invalid",
        "simplified_invoices.limit",
      );
    }
  });

  it("other shapes are 400 with the param: an unknown limit, basis or field, a long reference", async () => {
    const { test } = await esAccount();
    const cases: [unknown, string, string][] = [
      [{ limit: "1000.00", basis: "art_4_2" }, "parameter_invalid", "simplified_invoices.limit"],
      [{ limit: "3000.00", basis: "art_5" }, "parameter_invalid", "simplified_invoices.basis"],
      [{ basis: "art_4_2" }, "parameter_missing", "simplified_invoices.limit"],
      [{ limit: "400.00", basis: "art_4_1", extra: 1 }, "parameter_unknown", "simplified_invoices.extra"],
      [
        { limit: "3000.00", basis: "art_4_2", reference: "x".repeat(201) },
        "parameter_invalid",
        "simplified_invoices.reference",
      ],
    ];
    for (const [value, code, param] of cases) {
      expectError(await test.patch("/v1/account", { simplified_invoices: value }), 400, code, param);
    }
  });

  it("a refused setting writes nothing: the account reads as before", async () => {
    const { test } = await esAccount();
    await setLimit(test, { limit: "3000.00", basis: "art_4_2" });
    const before = await current(test);
    const res = await test.patch("/v1/account", {
      legal_name: "Cambiado SL",
      simplified_invoices: { limit: "3000.00", basis: "aeat_authorisation" },
    });
    expectError(res, 400, "parameter_missing", "simplified_invoices.reference");
    expect(await current(test)).toEqual(before);
  });

  it("null resets it to the default", async () => {
    const { test } = await esAccount();
    await setLimit(test, { limit: "3000.00", basis: "aeat_authorisation", reference: "AEAT 1" });
    expect(await setLimit(test, null)).toEqual(DEFAULT);
    expect((await current(test)).simplified_invoices).toEqual(DEFAULT);
  });

  it("it is per environment: setting it with the test key leaves live at the default", async () => {
    const { test, live } = await esAccount();
    await setLimit(test, { limit: "3000.00", basis: "art_4_2" });
    expect((await current(live)).simplified_invoices).toEqual(DEFAULT);
    await setLimit(live, { limit: "3000.00", basis: "aeat_authorisation", reference: "AEAT 9" });
    expect((await current(test)).simplified_invoices.basis).toBe("art_4_2");
  });

  it("a PATCH without it leaves it as it was", async () => {
    const { test } = await esAccount();
    await setLimit(test, { limit: "3000.00", basis: "art_4_2" });
    expectStatus(await test.patch("/v1/account", { legal_name: "Otra SL" }), 200);
    expect((await current(test)).simplified_invoices.basis).toBe("art_4_2");
  });

  it("a global account may set it; it has no effect there", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    expect(await setLimit(api, { limit: "3000.00", basis: "art_4_2" })).toMatchObject({ basis: "art_4_2" });
  });
});
