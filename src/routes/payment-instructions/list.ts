import type { Context } from "hono";
import { paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { type ListParams, listBody, paginate } from "../../lib/pagination";
import { ownedBy } from "../../lib/scope";
import { serializePaymentInstruction } from "./serialize";

/** `GET /v1/payment-instructions` */
export async function listPaymentInstructions(c: Context<AppEnv>, query: ListParams) {
  const where = ownedBy(paymentInstructions, c.get("caller"));
  const page = await paginate(c.get("db"), paymentInstructions, "paymentInstruction", where, query);
  return c.json(listBody("/v1/payment-instructions", page, serializePaymentInstruction));
}
