import * as z from "zod";
import { TAX_ID_OWNER_TYPES, TAX_ID_TYPES, VERIFICATION_STATUSES } from "../constants";
import { ERROR_STATUS } from "./errors";

/**
 * Response shapes shared by several resources. Written by hand, strict, so the OpenAPI
 * document says exactly what the serializers return.
 */

export const timestamp = z.string().describe("ISO 8601 timestamp, UTC.");

export const addressObject = z
  .object({
    line_1: z.string(),
    line_2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    state: z.string().nullable(),
    country: z.string().describe("ISO 3166-1 alpha-2."),
  })
  .strict();

/** The list envelope of every list endpoint. */
export function listOf<T extends z.ZodType>(item: T) {
  return z
    .object({
      object: z.literal("list"),
      url: z.string(),
      has_more: z.boolean(),
      data: z.array(item),
    })
    .strict();
}

export const errorEnvelope = z
  .object({
    error: z
      .object({
        type: z.enum(["invalid_request_error", "authentication_error", "rate_limit_error", "api_error"]),
        code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
        message: z.string(),
        param: z.string().optional().describe("Dotted path of the offending field: `lines.3.taxes.1.rule`."),
        request_id: z.string(),
      })
      .strict(),
  })
  .strict();

/** A registry check of a Tax ID (compliance.md, "Tax ID verification"). */
export const verificationObject = z
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
export const taxIdObject = z
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
