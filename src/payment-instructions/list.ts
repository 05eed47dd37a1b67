import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type PaymentInstructionRow, paymentInstructions } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import type { listPaymentInstructionsQuery } from "./schemas";

/** One page of the caller's payment instructions, newest first. */
export function listPaymentInstructions(
  db: Database,
  caller: Caller,
  query: z.output<typeof listPaymentInstructionsQuery>,
): Promise<Page<PaymentInstructionRow>> {
  return paginate(db, paymentInstructions, "paymentInstruction", ownedBy(paymentInstructions, caller), query);
}
