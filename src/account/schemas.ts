import * as z from "zod";
import { REPRESENTATION_TYPES, SIMPLIFIED_BASES, TAX_REGIME_IDS } from "../constants";
import { timestamp } from "../http/schemas";
import { isIsoDate } from "../lib/dates";
import { objectId, text } from "../lib/fields";
import { addressObject, addressPatchInput } from "../party/address";
import { issuerEinvoicingInput, issuerEinvoicingObject } from "../party/einvoicing";
import { taxIdInput } from "../tax-ids/columns";
import { taxIdObject } from "../tax-ids/schemas";

export const MAX_DEFAULT_PAYMENT_INSTRUCTIONS = 10;

const LIMITS = ["400.00", "3000.00"] as const;

export const updateAccountBody = /* @__PURE__ */ z
  .object({
    default_payment_instructions: z
      .array(objectId)
      .max(MAX_DEFAULT_PAYMENT_INSTRUCTIONS, `must have at most ${MAX_DEFAULT_PAYMENT_INSTRUCTIONS} entries`)
      .optional(),
    /** The issuer profile of this environment: what invoices snapshot as `issuer`. */
    legal_name: text(256).nullable().optional(),
    tax_id: taxIdInput.nullable().optional(),
    address: addressPatchInput.nullable().optional(),
    einvoicing: issuerEinvoicingInput,
    simplified_invoices: z
      .object({
        limit: z.enum(LIMITS),
        basis: z.enum(SIMPLIFIED_BASES),
        reference: text(200).nullable().optional(),
      })
      .strict()
      .nullable()
      .optional()
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "es accounts: the simplified-invoice limit (RD 1619/2012 art. 4). 400.00 with art_4_1; 3000.00 with art_4_2 or aeat_authorisation, which needs `reference`. null resets to 400.00 / art_4_1.",
            },
      ),
    verifactu: z
      .object({
        representation: z
          .object({
            type: z.enum(REPRESENTATION_TYPES),
            granted_on: z.string().refine(isIsoDate, "must be a calendar date written YYYY-MM-DD"),
            reference: z.string().trim().pipe(text(200)),
          })
          .strict()
          .nullable(),
      })
      .strict()
      .optional()
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "es accounts: how the deployment's AEAT certificate may file this environment's VERI*FACTU records (docs/going-live-spain.md). own_certificate only when the account's NIF is the operator's; apoderamiento or colaboracion_social otherwise, granted_on (YYYY-MM-DD, not in the future) and the grant's reference (1-200 characters, trimmed). null clears it.",
            },
      ),
  })
  .strict();

export type UpdateAccountBody = z.output<typeof updateAccountBody>;

export const accountObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("account"),
    live: z.boolean(),
    name: z.string(),
    tax_regime: z.enum(TAX_REGIME_IDS),
    default_payment_instructions: z.array(z.string()),
    legal_name: z.string().nullable(),
    tax_id: taxIdObject.nullable(),
    address: addressObject.nullable(),
    einvoicing: issuerEinvoicingObject,
    simplified_invoices: z
      .object({ limit: z.enum(LIMITS), basis: z.enum(SIMPLIFIED_BASES), reference: z.string().nullable() })
      .strict(),
    verifactu: z
      .object({
        representation: z
          .object({ type: z.enum(REPRESENTATION_TYPES), granted_on: z.string(), reference: z.string() })
          .strict()
          .nullable(),
      })
      .strict(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

export type Account = z.output<typeof accountObject>;
