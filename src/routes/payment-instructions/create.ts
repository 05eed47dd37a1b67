import { writerOf } from "../../events/writer";
import { route } from "../../http/route";
import { createPaymentInstruction } from "../../payment-instructions/create";
import { createPaymentInstructionBody, paymentInstructionObject } from "../../payment-instructions/schemas";

/** Creating one does not add it to the account's defaults. */
export const createPaymentInstructionRoute = route({
  method: "post",
  path: "/v1/payment-instructions",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payment instructions",
    summary: "Create a payment instruction",
    responses: { 201: { description: "The new instruction.", schema: paymentInstructionObject } },
  }),
  request: { json: createPaymentInstructionBody },
  handler: async (c, { json: body }) =>
    c.json(await createPaymentInstruction(writerOf(c), c.get("caller"), body), 201),
});
