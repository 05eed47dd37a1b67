import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { finalizeDraft } from "../../invoices/finalize";
import { invoiceObject } from "../../invoices/schemas";

/** Issues a draft exactly as `POST /v1/invoices` would issue its request now. */
export const finalizeInvoiceRoute = route({
  method: "post",
  path: "/v1/invoices/:id/finalize",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Finalize (issue) a draft invoice",
    responses: { 200: { description: "The issued invoice.", schema: invoiceObject } },
    errors: [
      "invoice_not_draft",
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
  request: { params: idParams },
  handler: async (c, { params: { id } }) => c.json(await finalizeDraft(writerOf(c), c.get("caller"), id)),
});
