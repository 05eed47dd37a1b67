import { idParams, route } from "../../http/route";
import { findPaymentInstruction } from "../../payment-instructions/find";
import { paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

export const retrievePaymentInstructionRoute = route({
  method: "get",
  path: "/v1/payment-instructions/:id",
  tag: "Payment instructions",
  summary: "Retrieve a payment instruction",
  request: { params: idParams },
  responses: { 200: { description: "The instruction.", schema: paymentInstructionObject } },
  handler: async (c, { params }) =>
    c.json(
      serializePaymentInstruction(await findPaymentInstruction(c.get("db"), c.get("caller"), params.id)),
    ),
});
