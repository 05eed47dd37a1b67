import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PAYMENT_INSTRUCTION_TYPES } from "../../constants";
import { accounts } from "./accounts";

export const paymentInstructions = sqliteTable(
  "payment_instructions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    label: text("label").notNull(),
    type: text("type", { enum: PAYMENT_INSTRUCTION_TYPES }).notNull(),
    beneficiary: text("beneficiary").notNull(),
    iban: text("iban").notNull(),
    bic: text("bic"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("payment_instructions_list_idx").on(t.accountId, t.live, t.id)],
);

/**
 * The account's ordered default instructions, per environment. The foreign key makes D1
 * refuse to delete an instruction that is still a default, even under concurrent requests.
 */
export const accountDefaultPaymentInstructions = sqliteTable(
  "account_default_payment_instructions",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    position: integer("position").notNull(),
    paymentInstructionId: text("payment_instruction_id")
      .notNull()
      .references(() => paymentInstructions.id),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.live, t.position] }),
    index("account_default_payment_instructions_pmi_idx").on(t.paymentInstructionId),
  ],
);

export type PaymentInstructionRow = typeof paymentInstructions.$inferSelect;
