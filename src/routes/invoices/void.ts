import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { invoiceObject, voidInvoiceBody } from "../../invoices/schemas";
import { voidInvoice } from "../../invoices/void";

export const voidInvoiceRoute = route({
  method: "post",
  path: "/v1/invoices/:id/void",
  // Read by the OpenAPI generator only: a Worker build leaves it out (wrangler.toml, [define]).
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Void an invoice",
    responses: {
      200: {
        description:
          "The void invoice: an issued invoice without payments, never corrected. It keeps its number; its PDF is rendered again with an ANULADA / VOID mark.",
        schema: invoiceObject,
      },
    },
    errors: ["invoice_not_voidable", "invoice_has_payments", "invoice_corrected"],
  }),
  request: { params: idParams, json: voidInvoiceBody },
  handler: async (c, { params, json }) =>
    c.json(await voidInvoice(writerOf(c), c.get("caller"), params.id, json)),
});
