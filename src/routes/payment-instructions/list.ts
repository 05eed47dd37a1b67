import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";
import { listPaymentInstructions } from "../../payment-instructions/list";
import { listPaymentInstructionsQuery, paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

export const listPaymentInstructionsRoute = route({
  method: "get",
  path: "/v1/payment-instructions",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Payment instructions",
    summary: "List payment instructions",
    responses: {
      200: { description: "Instructions, newest first.", schema: listOf(paymentInstructionObject) },
    },
  }),
  request: { query: listPaymentInstructionsQuery },
  handler: async (c, { query }) => {
    const page = await listPaymentInstructions(c.get("db"), c.get("caller"), query);
    return c.json(listBody("/v1/payment-instructions", page, serializePaymentInstruction));
  },
});
