import { writerOf } from "../../events/writer";
import { route } from "../../http/route";
import { createInvoice } from "../../invoices/create";
import { createInvoiceBody, invoiceObject } from "../../invoices/schemas";

export const createInvoiceRoute = route({
  method: "post",
  path: "/v1/invoices",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Issue an invoice, or create a draft",
    responses: { 201: { description: "The issued invoice, or the draft.", schema: invoiceObject } },
    errors: [
      "account_profile_incomplete",
      "customer_address_required",
      "series_mismatch",
      "issue_date_out_of_order",
      "issue_date_before_verifactu",
      "simplified_limit_exceeded",
      "payment_terms_not_applicable",
      "verifactu_not_ready",
    ],
  }),
  request: { json: createInvoiceBody },
  handler: async (c, { json: body }) => c.json(await createInvoice(writerOf(c), c.get("caller"), body), 201),
});
