import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PAYMENT_METHODS } from "../../constants";
import { accounts } from "./accounts";
import { invoices } from "./invoices";

/**
 * Payments received against issued invoices (lifecycle.md): recorded, never moved. The
 * invoice's `amount_paid` and `payment_status` change in the same batch as a payment's insert
 * or delete, so they always equal what this table holds.
 */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id),
    /** Minor units of `currency` (the invoice's), > 0. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    paidOn: text("paid_on").notNull(),
    method: text("method", { enum: PAYMENT_METHODS }).notNull(),
    reference: text("reference"),
    /** The instruction the payer used, as given: an id, not a reference, so deleting it stays possible. */
    paymentInstructionId: text("payment_instruction_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("payments_list_idx").on(t.accountId, t.live, t.id),
    index("payments_invoice_idx").on(t.accountId, t.live, t.invoiceId, t.id),
    // The foreign key's lookup when an invoice is deleted (a draft never has payments).
    index("payments_invoice_fk_idx").on(t.invoiceId),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
