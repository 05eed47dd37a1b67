import { writerOf } from "../../events/writer";
import { route } from "../../http/route";
import { issueInvoice } from "../../invoices/issue";
import { createInvoiceBody, invoiceObject } from "../../invoices/schemas";

export const createInvoiceRoute = route({
  method: "post",
  path: "/v1/invoices",
  tag: "Invoices",
  summary: "Issue an invoice",
  request: { json: createInvoiceBody },
  responses: { 201: { description: "The issued invoice.", schema: invoiceObject } },
  errors: [
    "account_profile_incomplete",
    "customer_address_required",
    "series_mismatch",
    "issue_date_out_of_order",
    "payment_terms_not_applicable",
  ],
  handler: async (c, { json: body }) => c.json(await issueInvoice(writerOf(c), c.get("caller"), body), 201),
});
