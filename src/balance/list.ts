import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type BalanceTransactionRow, balanceTransactions as t } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import type { listBalanceTransactionsQuery } from "./schemas";

/** One page of the caller's balance transactions, newest first, optionally of one type. */
export function listBalanceTransactions(
  db: Database,
  caller: Caller,
  query: z.output<typeof listBalanceTransactionsQuery>,
): Promise<Page<BalanceTransactionRow>> {
  const where = and(ownedBy(t, caller), query.type === undefined ? undefined : eq(t.type, query.type));
  return paginate(db, t, "balanceTransaction", where, query);
}
