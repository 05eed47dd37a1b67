import * as z from "zod";
import { BALANCE_TRANSACTION_TYPES } from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";

export const listBalanceTransactionsQuery = listParams
  .extend({ type: z.enum(BALANCE_TRANSACTION_TYPES).optional() })
  .strict();

const eur = /* @__PURE__ */ z
  .string()
  .describe(globalThis.OMIT_API_DOCS ? "" : 'A decimal string in EUR with two decimals ("-0.10", "50.00").');

export const balanceTransactionObject = /* @__PURE__ */ z
  .object({
    id: z.string().describe("btx_…"),
    object: z.literal("balance_transaction"),
    live: z.boolean(),
    type: z.enum(BALANCE_TRANSACTION_TYPES).describe("usage: an issued invoice's debit; top_up: a credit."),
    amount: eur.describe("Negative for a usage debit, positive for a top-up."),
    currency: z.literal("EUR"),
    balance_after: eur.describe("The balance once this transaction applied."),
    description: z.string(),
    source_event: z
      .string()
      .nullable()
      .describe("The invoice.issued event a usage debit is for (evt_…); null for top-ups."),
    created_at: timestamp,
  })
  .strict();

export type BalanceTransaction = z.output<typeof balanceTransactionObject>;

export const balanceObject = /* @__PURE__ */ z
  .object({
    object: z.literal("balance"),
    live: z.boolean(),
    currency: z.literal("EUR"),
    available: z
      .string()
      .describe('The newest balance transaction\'s balance_after; "0.00" before the first. May be negative.'),
  })
  .strict();
