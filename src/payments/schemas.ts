import * as z from "zod";
import { PAYMENT_METHODS } from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { isoDate } from "../invoices/schemas";
import { objectId, text } from "../lib/fields";
import { positiveAmount } from "../lib/money";

export const createPaymentBody = /* @__PURE__ */ z
  .object({
    amount: positiveAmount,
    paid_on: isoDate
      .optional()
      .describe(globalThis.OMIT_API_DOCS ? "" : "Default: the account's today; never in the future."),
    method: z
      .enum(PAYMENT_METHODS)
      .optional()
      .describe(globalThis.OMIT_API_DOCS ? "" : "Default `bank_transfer`."),
    reference: text(140).nullable().optional(),
    payment_instruction: objectId.optional().describe("The `pmi_…` the payer used."),
  })
  .strict();

export type CreatePaymentBody = z.output<typeof createPaymentBody>;

export const listPaymentsQuery = listParams.extend({ invoice: objectId.optional() }).strict();

export const paymentObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("payment"),
    live: z.boolean(),
    invoice: z.string(),
    amount: z.string(),
    currency: z.string(),
    paid_on: z.string(),
    method: z.enum(PAYMENT_METHODS),
    reference: z.string().nullable(),
    payment_instruction: z.string().nullable(),
    created_at: timestamp,
  })
  .strict();

export type Payment = z.output<typeof paymentObject>;

export const deletedPaymentObject = /* @__PURE__ */ z
  .object({ id: z.string(), object: z.literal("payment"), deleted: z.literal(true) })
  .strict();
