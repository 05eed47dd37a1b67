import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { updateDraft } from "../../invoices/draft-update";
import { invoiceObject, updateInvoiceBody } from "../../invoices/schemas";

/** Drafts only: omitted fields stay, `lines` replaces the list, `null` clears; totals are recomputed. */
export const updateInvoiceRoute = route({
  method: "patch",
  path: "/v1/invoices/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Update a draft invoice",
    responses: { 200: { description: "The draft, recomputed.", schema: invoiceObject } },
    errors: ["invoice_not_draft"],
  }),
  request: { params: idParams, json: updateInvoiceBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(await updateDraft(writerOf(c), c.get("caller"), id, body)),
});
