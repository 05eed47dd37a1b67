import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type BalanceTransactionRow, balanceTransactions } from "../db/schema";
import type { EventSpec, Scope } from "../events/write";
import { currencyExponent } from "../lib/currencies";
import { formatMinor } from "../lib/money";

/** The balance's one currency (compliance.md) and its ISO 4217 minor-unit exponent. */
export const BALANCE_CURRENCY = "EUR";
export const BALANCE_EXPONENT = currencyExponent(BALANCE_CURRENCY) as number;

const inScope = (s: Scope) =>
  and(eq(balanceTransactions.accountId, s.accountId), eq(balanceTransactions.live, s.live));

/**
 * The scope's balance in minor units as the statement that reads it sees it: the newest
 * row's `balance_after` (through the chain index: one row read), 0 before the first row.
 */
export function currentBalance(s: Scope): SQL<number> {
  const t = balanceTransactions;
  return sql<number>`coalesce((SELECT ${t.balanceAfter} FROM ${t} WHERE ${inScope(s)} ORDER BY ${t.seq} DESC LIMIT 1), 0)`;
}

/** The newest row's `balance_after`, for a read (no row: the scope's balance is 0). */
export function balanceQuery(db: Database, s: Scope) {
  const t = balanceTransactions;
  return db.select({ available: t.balanceAfter }).from(t).where(inScope(s)).orderBy(desc(t.seq)).limit(1);
}

function nextSeq(s: Scope): SQL<number> {
  const t = balanceTransactions;
  return sql<number>`(SELECT coalesce(max(${t.seq}), 0) + 1 FROM ${t} WHERE ${inScope(s)})`;
}

/**
 * Minor units as the API's decimal string ("-0.10"), computed by SQLite: what `formatMinor`
 * gives for the balance's currency (exponent 2), for a value only the database knows yet.
 */
export function formatCentsSql(cents: SQL<number>): SQL<string> {
  return sql<string>`printf('%s%d.%02d', CASE WHEN ${cents} < 0 THEN '-' ELSE '' END, abs(${cents}) / 100, abs(${cents}) % 100)`;
}

/** A ledger entry before the database has placed it in its chain. */
export type Entry = Omit<BalanceTransactionRow, "seq" | "balanceAfter">;

/**
 * The ledger INSERT: `seq` and `balance_after` are read from the scope's newest row by the
 * statement itself. D1 runs one batch at a time, so two writes can never read the same
 * predecessor (and the chain index would refuse it if they did): no cent lost or doubled.
 */
export function ledgerInsert(db: Database, entry: Entry) {
  return db
    .insert(balanceTransactions)
    .values({
      ...entry,
      seq: nextSeq(entry),
      balanceAfter: sql`${currentBalance(entry)} + ${entry.amount}`,
    })
    .returning({ balanceAfter: balanceTransactions.balanceAfter });
}

/**
 * The `billing.balance_transaction.created` event of `entry`, written earlier in the same
 * batch: its `balance_after` is the one the INSERT will compute (nothing else writes the
 * ledger between the two statements of one transaction).
 */
export function ledgerEvent(entry: Entry, object: { id: string; object: "balance_transaction" }): EventSpec {
  return {
    type: "billing.balance_transaction.created",
    object,
    fill: { "$.balance_after": formatCentsSql(sql`(${currentBalance(entry)} + ${entry.amount})`) },
  };
}

/** The balance object of the caller's environment: the newest transaction's balance_after. */
export async function readBalance(db: Database, caller: Caller) {
  const [row] = await counted(db, balanceQuery(db, caller));
  return {
    object: "balance" as const,
    live: caller.live,
    currency: BALANCE_CURRENCY,
    available: formatMinor(BigInt(row?.available ?? 0), BALANCE_EXPONENT),
  };
}
