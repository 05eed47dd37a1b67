import { and, asc, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { accountDefaultPaymentInstructions as defaults } from "../db/schema";

/** The caller's environment's default instruction ids, in order (a query for `db.batch`). */
export function defaultsQuery(db: Database, caller: Caller) {
  return db
    .select({ id: defaults.paymentInstructionId })
    .from(defaults)
    .where(and(eq(defaults.accountId, caller.accountId), eq(defaults.live, caller.live)))
    .orderBy(asc(defaults.position));
}
