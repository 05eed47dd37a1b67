import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { listPaymentInstructions } from "../../payment-instructions/list";
import { listPaymentInstructionsQuery, paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

export const listPaymentInstructionsRoute = route({
  method: "get",
  path: "/v1/payment-instructions",
  tag: "Payment instructions",
  summary: "List payment instructions",
  request: { query: listPaymentInstructionsQuery },
  responses: {
    200: { description: "Instructions, newest first.", schema: listOf(paymentInstructionObject) },
  },
  handler: async (c, { query }) => {
    const page = await listPaymentInstructions(c.get("db"), c.get("caller"), query);
    return c.json(listBody("/v1/payment-instructions", page, serializePaymentInstruction));
  },
});
