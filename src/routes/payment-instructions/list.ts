import type { Context } from "hono";
import { paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { type ListParams, paginate } from "../../lib/pagination";
import { ownedBy } from "../../lib/scope";
import { serializePaymentInstruction } from "./serialize";

/** `GET /v1/payment-instructions` */
export async function listPaymentInstructions(c: Context<AppEnv>, query: ListParams) {
  const where = ownedBy(paymentInstructions, c.get("caller"));
  const page = await paginate(c.get("db"), paymentInstructions, "paymentInstruction", where, query);
  return c.json({
    object: "list" as const,
    url: "/v1/payment-instructions",
    has_more: page.has_more,
    data: page.data.map(serializePaymentInstruction),
  });
}
