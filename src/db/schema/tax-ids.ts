import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TAX_ID_OWNER_TYPES, TAX_ID_TYPES, VERIFICATION_STATUSES } from "../../constants";
import { accounts } from "./accounts";

/**
 * Every Tax ID object ever created, current and replaced, with its own verification: the
 * source of truth. The owner (a customer, or the account's profile of one environment) keeps
 * a copy of its current Tax ID inline, so that reading a customer stays one row; the queue
 * consumer updates both in one batch. Rows outlive a replacement (and a deleted customer):
 * `GET /v1/tax-ids/{id}` and the invoices that name them still find them.
 */
export const taxIds = sqliteTable(
  "tax_ids",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    ownerType: text("owner_type", { enum: TAX_ID_OWNER_TYPES }).notNull(),
    /** `cus_…` or `acct_…`, by `owner_type`. */
    ownerId: text("owner_id").notNull(),
    country: text("country").notNull(),
    type: text("type", { enum: TAX_ID_TYPES }).notNull(),
    value: text("value").notNull(),
    createdAt: text("created_at").notNull(),
    /** Null when no registry applies (`verification: null`). */
    verificationStatus: text("verification_status", { enum: VERIFICATION_STATUSES }),
    verificationValid: integer("verification_valid", { mode: "boolean" }),
    verificationCompletedAt: text("verification_completed_at"),
    verifiedName: text("verified_name"),
    verifiedAddress: text("verified_address"),
    /**
     * The outbox mark: set by the consumer that takes the first check (the request only
     * sends it, so its write is the only D1 write of a create). A pending verification still
     * unmarked five minutes after its write is queued once more by the cron sweep.
     */
    verificationQueuedAt: text("verification_queued_at"),
    /** When the cron sweep sent an unmarked first check: the sweep sends one at most once. */
    verificationSweptAt: text("verification_swept_at"),
  },
  (t) => [
    index("tax_ids_list_idx").on(t.accountId, t.live, t.id),
    // Partial: only what the sweep looks for, so a queued or settled Tax ID is not in it.
    index("tax_ids_unswept_idx")
      .on(t.createdAt, t.id)
      .where(
        sql`${t.verificationStatus} = 'pending' AND ${t.verificationQueuedAt} IS NULL AND ${t.verificationSweptAt} IS NULL`,
      ),
  ],
);

export type TaxIdRow = typeof taxIds.$inferSelect;
