import * as z from "zod";
import { TAX_REGIME_IDS } from "../../constants";
import { timestamp } from "../../lib/api-schemas";

export const MAX_DEFAULT_PAYMENT_INSTRUCTIONS = 10;

export const updateAccountBody = z
  .object({
    default_payment_instructions: z
      .array(z.string())
      .max(MAX_DEFAULT_PAYMENT_INSTRUCTIONS, `must have at most ${MAX_DEFAULT_PAYMENT_INSTRUCTIONS} entries`)
      .optional(),
  })
  .strict();

export type UpdateAccountBody = z.output<typeof updateAccountBody>;

export const accountObject = z
  .object({
    id: z.string(),
    object: z.literal("account"),
    live: z.boolean(),
    name: z.string(),
    tax_regime: z.enum(TAX_REGIME_IDS),
    default_payment_instructions: z.array(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

export type Account = z.output<typeof accountObject>;
