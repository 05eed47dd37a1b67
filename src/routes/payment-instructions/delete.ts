import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { deletePaymentInstruction } from "../../payment-instructions/delete";

/**
 * 204. An instruction in the account's `default_payment_instructions` is a 409 until removed
 * from them; the foreign key from the defaults table decides (and rolls the event back with
 * the delete), so a concurrent PATCH of the defaults cannot slip past the check.
 */
export const deletePaymentInstructionRoute = route({
  method: "delete",
  path: "/v1/payment-instructions/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payment instructions",
    summary: "Delete a payment instruction",
    responses: { 204: { description: "Deleted." } },
    errors: ["resource_in_use"],
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) => {
    await deletePaymentInstruction(writerOf(c), c.get("caller"), id);
    return c.body(null, 204);
  },
});
