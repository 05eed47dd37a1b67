/**
 * einvoices.md: `GET /v1/invoices/{id}/ubl` and `/facturae` serve the issued invoice as a
 * structured e-invoice built by the renderer Worker (a real auxiliary Worker here), with an ETag
 * (304 on `If-None-Match`); drafts are 409 invoice_not_issued, an invoice Peppol cannot take is
 * 409 einvoice_missing_data. What the documents hold is validated in test/tooling/einvoice-ubl.test.ts.
 */
import { describe, expect, it } from "vitest";
import { client, expectStatus, request } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { customerWithAddress, esIssuer, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

describe("GET /v1/invoices/{id}/ubl and /facturae", () => {
  it("serves the issued invoice as UBL with an ETag, the same bytes each time, and 304 on a match", async () => {
    const { account, api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    const res = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expectStatus(res, 200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.text).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
    expect(res.text).toContain('<cbc:EndpointID schemeID="9920">ESA58818501</cbc:EndpointID>');
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expect(again.text).toBe(res.text);
    expect(again.headers.get("etag")).toBe(etag);
    const cached = await request("GET", `/v1/invoices/${invoice.id}/ubl`, undefined, {
      key: account.testKey,
      headers: { "If-None-Match": etag! },
    });
    expect(cached.status, cached.text).toBe(304);
  });

  it("serves Facturae through the renderer's /facturae path", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    const res = await api.get(`/v1/invoices/${invoice.id}/facturae`);
    expectStatus(res, 200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
  });

  it("serves a void invoice (the document it was)", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    const before = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/void`, { reason: "Duplicated" }), 200);
    const after = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expectStatus(after, 200);
    expect(after.text).toBe(before.text);
  });

  it("a draft is 409 invoice_not_issued", async () => {
    const { api, customer } = await esIssuer();
    const draft = await api.post("/v1/invoices", {
      draft: true,
      customer: customer.id,
      lines: [ivaLine("100")],
    });
    expectStatus(draft, 201);
    const id = (draft.body as { id: string }).id;
    expectError(await api.get(`/v1/invoices/${id}/ubl`), 409, "invoice_not_issued");
    expectError(await api.get(`/v1/invoices/${id}/facturae`), 409, "invoice_not_issued");
  });

  it("a simplified invoice without a customer is 409 einvoice_missing_data naming the customer", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const api = client(account.testKey);
    await setProfile(api);
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine("10")] });
    const res = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expectError(res, 409, "einvoice_missing_data");
    expect(res.body.error.message).toContain("a customer");
  });

  it("a customer with neither a VAT number nor a Peppol ID is 409 einvoice_missing_data", async () => {
    const { api } = await esIssuer();
    const customer = await customerWithAddress(api, {
      name: "Foreign Buyer Ltd",
      tax_id: { country: "US", type: "local", value: "123456789" },
      address: { line_1: "1 Main St", city: "Springfield", postal_code: "49007", country: "US" },
    });
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100", "exempt_art_21")] });
    const res = await api.get(`/v1/invoices/${invoice.id}/ubl`);
    expectError(res, 409, "einvoice_missing_data");
    expect(res.body.error.message).toContain("the customer's electronic address");
  });

  it("an unknown invoice is 404", async () => {
    const { api } = await esIssuer();
    expectError(await api.get("/v1/invoices/inv_00000000000000000000000000/ubl"), 404, "resource_missing");
  });
});
