import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type BalanceTransactionRow, balanceTransactions } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

/** The caller's balance transaction `id`, or a 404 (other accounts and environments do not exist). */
export async function findBalanceTransaction(
  db: Database,
  caller: Caller,
  id: string,
): Promise<BalanceTransactionRow> {
  const t = balanceTransactions;
  const rows = await counted(
    db,
    db
      .select()
      .from(t)
      .where(and(eq(t.id, id), ownedBy(t, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("balance transaction", id);
  return row;
}
