import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { resubmitRecord } from "../../invoices/resubmit";
import { invoiceObject } from "../../invoices/schemas";

export const resubmitVerifactuRoute = route({
  method: "post",
  path: "/v1/invoices/:id/verifactu/resubmit",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Resubmit an invoice's VERI*FACTU record (subsanación)",
    responses: {
      200: {
        description:
          "The invoice with `verifactu.status` pending: a new registration record of it (Subsanacion S, and RechazoPrevio as AEAT's rules say) joined its chain and goes to the registry. Only a rejected or accepted-with-errors registration can be resubmitted.",
        schema: invoiceObject,
      },
    },
    errors: ["verifactu_not_resubmittable"],
  }),
  request: { params: idParams },
  handler: async (c, { params }) => c.json(await resubmitRecord(writerOf(c), c.get("caller"), params.id)),
});
