import { paymentInstructions } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { listPaymentInstructionsQuery, paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

export const listPaymentInstructions = route({
  method: "get",
  path: "/v1/payment-instructions",
  tag: "Payment instructions",
  summary: "List payment instructions",
  request: { query: listPaymentInstructionsQuery },
  responses: {
    200: { description: "Instructions, newest first.", schema: listOf(paymentInstructionObject) },
  },
  handler: async (c, { query }) => {
    const where = ownedBy(paymentInstructions, c.get("caller"));
    const page = await paginate(c.get("db"), paymentInstructions, "paymentInstruction", where, query);
    return c.json(listBody("/v1/payment-instructions", page, serializePaymentInstruction));
  },
});
