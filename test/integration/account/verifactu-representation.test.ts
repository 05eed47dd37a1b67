/**
 * verifactu-system.md §4 and §6 on PATCH /v1/account: `verifactu.representation` per
 * environment (how the deployment's certificate files for the account), `own_certificate`
 * only for the operator's NIF, only `es` accounts; one Live account per issuer NIF
 * (409 `issuer_tax_id_in_use`). Every refusal writes nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { esProfile } from "../../helpers/invoices";
import { apoderamiento, uniqueNif } from "../../helpers/live-ready";
import { expectError } from "../../helpers/security";

async function esAccount() {
  const account = await createAccount({ taxRegime: "es" });
  return { account, test: client(account.testKey), live: client(account.liveKey) };
}

async function representationOf(api: ApiClient) {
  const res = await api.get("/v1/account");
  expectStatus(res, 200);
  return res.body.verifactu.representation;
}

function expectNothingWritten(res: { headers: Headers; text: string }) {
  expect(res.headers.get("D1-Rows-Written"), res.text).toBe("0");
}

describe("verifactu.representation is a setting of the key's environment", () => {
  it("unset reads null; a Live key sets Live's only; null clears it", async () => {
    const { test, live } = await esAccount();
    expect(await representationOf(live)).toBeNull();

    const res = await live.patch("/v1/account", { verifactu: { representation: apoderamiento } });
    expectStatus(res, 200);
    expect(res.body.verifactu).toEqual({ representation: apoderamiento });
    expect(await representationOf(live)).toEqual(apoderamiento);
    expect(await representationOf(test)).toBeNull();

    const social = { type: "colaboracion_social", granted_on: "2025-12-31", reference: "Acuerdo tipo 017" };
    expectStatus(await test.patch("/v1/account", { verifactu: { representation: social } }), 200);
    expect(await representationOf(test)).toEqual(social);
    expect(await representationOf(live)).toEqual(apoderamiento);

    expectStatus(await live.patch("/v1/account", { verifactu: { representation: null } }), 200);
    expect(await representationOf(live)).toBeNull();
    expect(await representationOf(test)).toEqual(social);
  });

  it("the reference is stored trimmed", async () => {
    const { live } = await esAccount();
    const res = await live.patch("/v1/account", {
      verifactu: { representation: { ...apoderamiento, reference: "  RA-7  " } },
    });
    expectStatus(res, 200);
    expect(res.body.verifactu.representation?.reference).toBe("RA-7");
  });
});

describe("a bad representation is 400 with its param, and nothing is written", () => {
  const cases: [string, unknown, string][] = [
    ["an unknown type", { ...apoderamiento, type: "poder_notarial" }, "verifactu.representation.type"],
    [
      "a malformed granted_on",
      { ...apoderamiento, granted_on: "2026-02-30" },
      "verifactu.representation.granted_on",
    ],
    ["an empty reference", { ...apoderamiento, reference: "" }, "verifactu.representation.reference"],
    ["a blank reference", { ...apoderamiento, reference: "   " }, "verifactu.representation.reference"],
    [
      "a reference over 200",
      { ...apoderamiento, reference: "x".repeat(201) },
      "verifactu.representation.reference",
    ],
    [
      "a missing reference",
      { type: "apoderamiento", granted_on: "2026-01-02" },
      "verifactu.representation.reference",
    ],
    [
      "an unknown field",
      { ...apoderamiento, expires_on: "2027-01-01" },
      "verifactu.representation.expires_on",
    ],
  ];
  it.each(cases)("%s", async (_, representation, param) => {
    const { live } = await esAccount();
    const res = await live.patch("/v1/account", { verifactu: { representation } });
    expect(res.status, res.text).toBe(400);
    expect((res.body as unknown as { error: { param?: string } }).error.param).toBe(param);
    expectNothingWritten(res);
    expect(await representationOf(live)).toBeNull();
  });

  it("granted_on in the future (Madrid's today) is refused with the date", async () => {
    const { live } = await esAccount();
    const res = await live.patch("/v1/account", {
      verifactu: { representation: { ...apoderamiento, granted_on: "2999-01-01" } },
    });
    expectError(res, 400, "parameter_invalid", "verifactu.representation.granted_on");
    expect(res.body.error.message).toMatch(/must not be in the future/);
    expectNothingWritten(res);
  });

  it("a global account has no VERI*FACTU: 400 on verifactu", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const res = await client(account.liveKey).patch("/v1/account", {
      verifactu: { representation: apoderamiento },
    });
    expectError(res, 400, "parameter_invalid", "verifactu");
    expect(res.body.error.message).toMatch(/Only es accounts/);
    expectNothingWritten(res);
  });

  it("a refused representation leaves the rest of the PATCH unwritten too", async () => {
    const { live } = await esAccount();
    const res = await live.patch("/v1/account", {
      legal_name: "Nueva SL",
      verifactu: { representation: { ...apoderamiento, granted_on: "2999-01-01" } },
    });
    expectError(res, 400, "parameter_invalid", "verifactu.representation.granted_on");
    const after = await live.get("/v1/account");
    expect(after.body.legal_name).toBeNull();
  });
});

describe("own_certificate only when the account's NIF is the operator's", () => {
  const own = { type: "own_certificate", granted_on: "2026-01-02", reference: "Certificado propio" };

  it("without an operator configured, or with another NIF, 400 on verifactu.representation.type", async () => {
    const { account, live } = await esAccount();
    expectStatus(
      await live.patch("/v1/account", { tax_id: { ...esProfile.tax_id, value: uniqueNif() } }),
      200,
    );
    const res = await live.patch("/v1/account", { verifactu: { representation: own } });
    expectError(res, 400, "parameter_invalid", "verifactu.representation.type");
    expect(res.body.error.message).toMatch(/NIF is the operator's.*use apoderamiento or colaboracion_social/);
    expectNothingWritten(res);

    const operator = { ...env, VERIFACTU_OPERATOR_NIF: uniqueNif(), VERIFACTU_OPERATOR_NAME: "Operadora SL" };
    const other = await client(account.liveKey, operator as Env).patch("/v1/account", {
      verifactu: { representation: own },
    });
    expectError(other, 400, "parameter_invalid", "verifactu.representation.type");
  });

  it("the operator's own account may declare it (its NIF set in the same PATCH or before)", async () => {
    const { account } = await esAccount();
    const nif = uniqueNif();
    const operator = { ...env, VERIFACTU_OPERATOR_NIF: nif, VERIFACTU_OPERATOR_NAME: "Operadora SL" } as Env;
    const live = client(account.liveKey, operator);
    const res = await live.patch("/v1/account", {
      tax_id: { country: "ES", type: "es_nif", value: nif },
      verifactu: { representation: own },
    });
    expectStatus(res, 200);
    expect(res.body.verifactu.representation).toEqual(own);
  });
});

describe("one Live account per issuer NIF: 409 issuer_tax_id_in_use", () => {
  it("a Live key cannot take a NIF another es account's Live environment has; Test keys can", async () => {
    const first = await esAccount();
    const second = await esAccount();
    const nif = uniqueNif();
    const taxId = { country: "ES", type: "es_nif", value: nif };
    expectStatus(await first.live.patch("/v1/account", { tax_id: taxId }), 200);

    const res = await second.live.patch("/v1/account", { legal_name: "Otra SL", tax_id: taxId });
    expectError(res, 409, "issuer_tax_id_in_use", "tax_id.value");
    expect(res.body.error.message).toContain(nif);
    expectNothingWritten(res);
    expect((await second.live.get("/v1/account")).body.legal_name).toBeNull();

    // The same NIF as an eu_vat is the same issuer.
    const vat = await second.live.patch("/v1/account", {
      tax_id: { country: "ES", type: "eu_vat", value: `ES${nif}` },
    });
    expectError(vat, 409, "issuer_tax_id_in_use", "tax_id.value");

    // Test mode is not limited, nor is the first account re-sending its own NIF.
    expectStatus(await second.test.patch("/v1/account", { tax_id: taxId }), 200);
    expectStatus(await first.test.patch("/v1/account", { tax_id: taxId }), 200);
    expectStatus(await first.live.patch("/v1/account", { tax_id: taxId }), 200);
  });

  it("the other account may be on another shard", async () => {
    const nif = uniqueNif();
    const elsewhere = await createAccount({ taxRegime: "es", shard: "DB_2" });
    const taxId = { country: "ES", type: "es_nif", value: nif };
    expectStatus(await client(elsewhere.liveKey).patch("/v1/account", { tax_id: taxId }), 200);
    const { live } = await esAccount();
    expectError(
      await live.patch("/v1/account", { tax_id: taxId }),
      409,
      "issuer_tax_id_in_use",
      "tax_id.value",
    );
  });

  it("a NIF released by its Live account (changed or cleared) may be taken", async () => {
    const first = await esAccount();
    const second = await esAccount();
    const taxId = { country: "ES", type: "es_nif", value: uniqueNif() };
    expectStatus(await first.live.patch("/v1/account", { tax_id: taxId }), 200);
    expectStatus(await first.live.patch("/v1/account", { tax_id: null }), 200);
    expectStatus(await second.live.patch("/v1/account", { tax_id: taxId }), 200);
  });

  it("global accounts are not limited (they file no VERI*FACTU records)", async () => {
    const taxId = { country: "ES", type: "es_nif", value: uniqueNif() };
    const es = await esAccount();
    expectStatus(await es.live.patch("/v1/account", { tax_id: taxId }), 200);
    const global = await createAccount({ taxRegime: "global" });
    expectStatus(await client(global.liveKey).patch("/v1/account", { tax_id: taxId }), 200);
  });
});
