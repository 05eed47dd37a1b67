import { idParams, route } from "../../lib/route";
import { findPaymentInstruction } from "./find";
import { paymentInstructionObject } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

export const retrievePaymentInstruction = route({
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
