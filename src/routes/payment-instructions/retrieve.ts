import { idParams, route } from "../../http/route";
import { findPaymentInstruction } from "../../payment-instructions/find";
import { paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

export const retrievePaymentInstructionRoute = route({
  method: "get",
  path: "/v1/payment-instructions/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payment instructions",
    summary: "Retrieve a payment instruction",
    responses: { 200: { description: "The instruction.", schema: paymentInstructionObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) =>
    c.json(
      serializePaymentInstruction(await findPaymentInstruction(c.get("db"), c.get("caller"), params.id)),
    ),
});
