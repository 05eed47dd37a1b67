import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { invoiceObject, voidInvoiceBody } from "../../invoices/schemas";
import { voidInvoice } from "../../invoices/void";

export const voidInvoiceRoute = route({
  method: "post",
  path: "/v1/invoices/:id/void",
  tag: "Invoices",
  summary: "Void an invoice",
  request: { params: idParams, json: voidInvoiceBody },
  responses: {
    200: {
      description:
        "The void invoice: an issued invoice without payments, never corrected. It keeps its number; its PDF is rendered again with an ANULADA / VOID mark.",
      schema: invoiceObject,
    },
  },
  errors: ["invoice_not_voidable", "invoice_has_payments", "invoice_corrected"],
  handler: async (c, { params, json }) =>
    c.json(await voidInvoice(writerOf(c), c.get("caller"), params.id, json)),
});
