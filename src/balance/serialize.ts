import type { BalanceTransactionRow } from "../db/schema";
import { formatMinor } from "../lib/money";
import { BALANCE_CURRENCY, BALANCE_EXPONENT } from "./ledger";
import type { BalanceTransaction } from "./schemas";

/** The one place a ledger row becomes the API object: cents become decimal strings. */
export function serializeBalanceTransaction(row: BalanceTransactionRow): BalanceTransaction {
  return {
    id: row.id,
    object: "balance_transaction",
    live: row.live,
    type: row.type,
    amount: formatMinor(BigInt(row.amount), BALANCE_EXPONENT),
    currency: BALANCE_CURRENCY,
    balance_after: formatMinor(BigInt(row.balanceAfter), BALANCE_EXPONENT),
    description: row.description,
    source_event: row.sourceEvent,
    created_at: row.createdAt,
  };
}
