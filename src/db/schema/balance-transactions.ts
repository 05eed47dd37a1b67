import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { BALANCE_TRANSACTION_TYPES } from "../../constants";
import { accounts } from "./accounts";

/**
 * The usage balance: an append-only ledger per account and environment (triggers in the
 * migration refuse UPDATE and DELETE). There is no balance column anywhere else: the
 * balance is the newest row's `balance_after`, which each INSERT computes from the row
 * before it inside its own statement (src/balance/ledger.ts), so concurrent writes queue in
 * D1's one writer instead of racing.
 */
export const balanceTransactions = sqliteTable(
  "balance_transactions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    /** Position in the scope's chain (1, 2, 3…): the order `balance_after` was computed in. */
    seq: integer("seq").notNull(),
    type: text("type", { enum: BALANCE_TRANSACTION_TYPES }).notNull(),
    /** Minor units (cents): negative for a usage debit, positive for a top-up. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** Minor units: the balance once this row is applied (the previous row's plus `amount`). */
    balanceAfter: integer("balance_after").notNull(),
    description: text("description").notNull(),
    /** The `invoice.issued` event a usage debit is for; null for top-ups. */
    sourceEvent: text("source_event"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // One chain per scope: two rows can never claim the same predecessor.
    uniqueIndex("balance_transactions_chain_idx").on(t.accountId, t.live, t.seq),
    // One debit per event, whatever retries a caller makes.
    uniqueIndex("balance_transactions_source_event_idx")
      .on(t.sourceEvent)
      .where(sql`${t.sourceEvent} IS NOT NULL`),
    index("balance_transactions_list_idx").on(t.accountId, t.live, t.id),
    index("balance_transactions_type_idx").on(t.accountId, t.live, t.type, t.id),
  ],
);

export type BalanceTransactionRow = typeof balanceTransactions.$inferSelect;
