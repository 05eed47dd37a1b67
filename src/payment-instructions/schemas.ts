import * as z from "zod";
import { PAYMENT_INSTRUCTION_TYPES } from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { checkBic } from "../lib/bic";
import { checkedString, text } from "../lib/fields";
import { checkIban } from "../lib/iban";

/** Whitespace removed, uppercased, registry length and check digits (ES also its DC digits). */
const iban = /* @__PURE__ */ checkedString(64, checkIban).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: "IBAN; spaces allowed, case-insensitive, registry length and check digits verified.",
      },
);

/** Whitespace removed, uppercased, ISO 9362 (8 or 11 characters). */
const bic = /* @__PURE__ */ checkedString(32, checkBic).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : { description: "BIC (ISO 9362), 8 or 11 characters; spaces allowed, case-insensitive." },
);

export const createPaymentInstructionBody = /* @__PURE__ */ z
  .object({
    label: text(256),
    type: z.literal("bank_transfer", { error: "must be bank_transfer" }),
    bank_transfer: z.object({ beneficiary: text(140), iban, bic: bic.nullable().optional() }).strict(),
  })
  .strict();

export const updatePaymentInstructionBody = /* @__PURE__ */ z
  .object({
    label: text(256).optional(),
    type: z
      .unknown()
      .refine((v) => v === undefined, "cannot be changed after creation")
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : { description: "Cannot be changed after creation: any value is rejected.", not: {} },
      )
      .optional(),
    bank_transfer: z
      .object({ beneficiary: text(140).optional(), iban: iban.optional(), bic: bic.nullable().optional() })
      .strict()
      .optional(),
  })
  .strict();

export const listPaymentInstructionsQuery = listParams;

export type CreatePaymentInstructionBody = z.output<typeof createPaymentInstructionBody>;
export type UpdatePaymentInstructionBody = z.output<typeof updatePaymentInstructionBody>;

export const paymentInstructionObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("payment_instruction"),
    live: z.boolean(),
    account: z.string(),
    label: z.string(),
    type: z.enum(PAYMENT_INSTRUCTION_TYPES),
    bank_transfer: z
      .object({ beneficiary: z.string(), iban: z.string(), bic: z.string().nullable() })
      .strict(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

export type PaymentInstruction = z.output<typeof paymentInstructionObject>;
