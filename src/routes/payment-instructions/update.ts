import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";
import { paymentInstructionObject, updatePaymentInstructionBody } from "../../payment-instructions/schemas";
import { updatePaymentInstruction } from "../../payment-instructions/update";

/** Affects future uses only: issued invoices keep their snapshot. */
export const updatePaymentInstructionRoute = route({
  method: "patch",
  path: "/v1/payment-instructions/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payment instructions",
    summary: "Update a payment instruction",
    responses: { 200: { description: "The updated instruction.", schema: paymentInstructionObject } },
  }),
  request: { params: idParams, json: updatePaymentInstructionBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(await updatePaymentInstruction(writerOf(c), c.get("caller"), id, body)),
});
