/**
 * account.md, "E-invoicing": the issuer profile's `einvoicing.peppol_id`, per environment, set
 * and cleared with PATCH /v1/account; the 400 on a bad id; the invoice's issuer snapshot.
 */
import { describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { esIssuer, getInvoice, issue, ivaLine } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

async function account() {
  const a = await createAccount({ taxRegime: "es" });
  return { test: client(a.testKey), live: client(a.liveKey) };
}

async function einvoicing(api: ApiClient) {
  const res = await api.get("/v1/account");
  expectStatus(res, 200);
  return res.body.einvoicing;
}

async function patch(api: ApiClient, body: unknown) {
  const res = await api.patch("/v1/account", body);
  expectStatus(res, 200);
  expect(res.body.einvoicing).toEqual(await einvoicing(api));
  return res.body.einvoicing;
}

describe("einvoicing on the account", () => {
  it("an account that never set it reads peppol_id null", async () => {
    const { test, live } = await account();
    expect(await einvoicing(test)).toEqual({ peppol_id: null });
    expect(await einvoicing(live)).toEqual({ peppol_id: null });
  });

  it("is set per environment: the other environment does not see it", async () => {
    const { test, live } = await account();
    expect(await patch(test, { einvoicing: { peppol_id: "9920:ESB12345674" } })).toEqual({
      peppol_id: "9920:ESB12345674",
    });
    expect(await einvoicing(live)).toEqual({ peppol_id: null });
  });

  it("{peppol_id: null} clears it, einvoicing: null too; {} and other fields leave it", async () => {
    const { test } = await account();
    await patch(test, { einvoicing: { peppol_id: "0088:5790000435968" } });
    expect(await patch(test, { einvoicing: {} })).toEqual({ peppol_id: "0088:5790000435968" });
    expect(await patch(test, { legal_name: "Otra SL" })).toEqual({ peppol_id: "0088:5790000435968" });
    expect(await patch(test, { einvoicing: { peppol_id: null } })).toEqual({ peppol_id: null });
    await patch(test, { einvoicing: { peppol_id: "0088:5790000435968" } });
    expect(await patch(test, { einvoicing: null })).toEqual({ peppol_id: null });
  });

  it("a scheme outside the Peppol EAS code list or a bad id is 400 on einvoicing.peppol_id, nothing written", async () => {
    const { test } = await account();
    await patch(test, { einvoicing: { peppol_id: "9920:ESB12345674" } });
    for (const id of ["9999:ESB12345674", "9920:", "9920:ES B1", "ESB12345674", `9920:${"1".repeat(131)}`]) {
      const res = await test.patch("/v1/account", { legal_name: "Nueva SL", einvoicing: { peppol_id: id } });
      expectError(res, 400, "parameter_invalid", "einvoicing.peppol_id");
      expect(res.headers.get("D1-Rows-Written")).toBe("0");
    }
    expect(await einvoicing(test)).toEqual({ peppol_id: "9920:ESB12345674" });
  });

  it("an unknown field inside einvoicing (dir3 is the customers') is 400 parameter_unknown", async () => {
    const { test } = await account();
    const res = await test.patch("/v1/account", { einvoicing: { dir3: null } });
    expectError(res, 400, "parameter_unknown", "einvoicing.dir3");
  });
});

describe("the issuer's einvoicing on an invoice", () => {
  it("is snapshotted at issuance; a later change of the profile leaves the invoice as issued", async () => {
    const { api, customer } = await esIssuer();
    await patch(api, { einvoicing: { peppol_id: "9920:ESB12345674" } });
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(invoice.issuer.einvoicing).toEqual({ peppol_id: "9920:ESB12345674" });

    await patch(api, { einvoicing: { peppol_id: null } });
    expect((await getInvoice(api, invoice.id)).issuer.einvoicing).toEqual({ peppol_id: "9920:ESB12345674" });
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.issuer.einvoicing).toEqual({ peppol_id: null });
  });
});
