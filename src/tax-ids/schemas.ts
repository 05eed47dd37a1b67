import * as z from "zod";
import { TAX_ID_OWNER_TYPES, TAX_ID_TYPES, VERIFICATION_STATUSES } from "../constants";
import { timestamp } from "../http/schemas";

// The Tax ID object is shared with the customer and account objects that embed it.

/** A registry check of a Tax ID (compliance.md, "Tax ID verification"). */
export const verificationObject = /* @__PURE__ */ z
  .object({
    status: z
      .enum(VERIFICATION_STATUSES)
      .describe(
        "`pending` (queued, running or waiting to be retried), `completed` (read `valid`), `failed` (the registry could not be asked; not evidence of invalidity).",
      ),
    valid: z.boolean().nullable().describe("The registry's answer; null while pending or when failed."),
    completed_at: timestamp.nullable().describe("When it completed or failed; null while pending."),
    verified_name: z.string().nullable().describe("The trader's name as the registry (VIES) returned it."),
    verified_address: z
      .string()
      .nullable()
      .describe("The trader's address as the registry (VIES) returned it."),
  })
  .strict();

/** A Tax ID object (a customer's or the account's, current or replaced). */
export const taxIdObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("tax_id"),
    live: z.boolean(),
    country: z.string(),
    type: z.enum(TAX_ID_TYPES),
    value: z.string(),
    owner: z.object({ type: z.enum(TAX_ID_OWNER_TYPES), id: z.string() }).strict(),
    verification: verificationObject
      .nullable()
      .describe("The latest registry verification; null when no registry applies to this Tax ID."),
  })
  .strict();

export type TaxId = z.output<typeof taxIdObject>;
