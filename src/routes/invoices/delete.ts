import * as z from "zod";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { deleteDraft } from "../../invoices/draft-delete";

const deleted = z.object({ id: z.string(), object: z.literal("invoice"), deleted: z.literal(true) }).strict();

/** Drafts only: an issued invoice is never deleted (void it instead). */
export const deleteInvoiceRoute = route({
  method: "delete",
  path: "/v1/invoices/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Invoices",
    summary: "Delete a draft invoice",
    responses: { 200: { description: "The draft is gone.", schema: deleted } },
    errors: ["invoice_not_draft"],
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) => {
    await deleteDraft(writerOf(c), c.get("caller"), id);
    return c.json({ id, object: "invoice" as const, deleted: true as const });
  },
});
