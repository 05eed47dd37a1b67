import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { deletePayment } from "../../payments/delete";
import { deletedPaymentObject } from "../../payments/schemas";

/** A payment recorded by mistake; its invoice's payment state is recomputed. */
export const deletePaymentRoute = route({
  method: "delete",
  path: "/v1/payments/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payments",
    summary: "Delete a payment",
    responses: { 200: { description: "Deleted.", schema: deletedPaymentObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) => c.json(await deletePayment(writerOf(c), c.get("caller"), id)),
});
