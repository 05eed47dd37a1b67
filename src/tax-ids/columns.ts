import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import * as z from "zod";
import { TAX_ID_TYPES, type TaxIdOwnerType, type TaxIdType, type VerificationStatus } from "../constants";
import { ApiError } from "../http/errors";
import { nowIso } from "../lib/clock";
import { text } from "../lib/fields";
import { newId } from "../lib/ids";
import { countryCode, type SqlOf } from "../party/address";
import { checkTaxId } from "./check";

/** A Tax ID as a request sends it, as the columns its owner's row holds, and as the API shows it. */

export const taxIdInput = z
  .object({ country: countryCode, type: z.enum(TAX_ID_TYPES), value: text(32) })
  .strict();

export type TaxIdColumns = {
  taxIdId: string | null;
  taxIdCountry: string | null;
  taxIdType: TaxIdType | null;
  taxIdValue: string | null;
  taxIdVerificationStatus: VerificationStatus | null;
  taxIdVerificationValid: boolean | null;
  taxIdVerificationCompletedAt: string | null;
  taxIdVerifiedName: string | null;
  taxIdVerifiedAddress: string | null;
  taxIdCreatedAt: string | null;
};

/**
 * Validates a Tax ID input and returns the columns of a new Tax ID object (new `txi_` id):
 * its verification is `pending` when `verifies` says a registry checks it (by type and
 * normalised value) for the caller, else null. Every column is set, so a replaced Tax ID
 * leaves nothing of its own (its verified name, say) on its owner.
 *
 * @example
 * newTaxIdColumns({ country: "ES", type: "eu_vat", value: "ESB12345674" }, () => true)
 * // { taxIdId: "txi_…", …, taxIdVerificationStatus: "pending", taxIdVerificationValid: null, … }
 */
export function newTaxIdColumns(
  input: { country: string; type: TaxIdType; value: string },
  verifies: (tax: { type: TaxIdType; value: string }) => boolean,
) {
  const check = checkTaxId(input);
  if (!check.ok) throw new ApiError("parameter_invalid", check.message, { param: check.param });
  return {
    taxIdId: newId("taxId"),
    taxIdCountry: check.country,
    taxIdType: check.type,
    taxIdValue: check.value,
    taxIdVerificationStatus: verifies(check) ? ("pending" as const) : null,
    taxIdVerificationValid: null,
    taxIdVerificationCompletedAt: null,
    taxIdVerifiedName: null,
    taxIdVerifiedAddress: null,
    taxIdCreatedAt: nowIso(),
  } satisfies TaxIdColumns;
}

export const NO_TAX_ID: TaxIdColumns = {
  taxIdId: null,
  taxIdCountry: null,
  taxIdType: null,
  taxIdValue: null,
  taxIdVerificationStatus: null,
  taxIdVerificationValid: null,
  taxIdVerificationCompletedAt: null,
  taxIdVerifiedName: null,
  taxIdVerifiedAddress: null,
  taxIdCreatedAt: null,
};

/**
 * The Tax ID object, or null when none is stored: the one serializer of a Tax ID, whether
 * its owner's inline copy or its own `tax_ids` row (`GET /v1/tax-ids/{id}`) is read.
 */
export function taxIdOf(row: TaxIdColumns, owner: { type: TaxIdOwnerType; id: string }, live: boolean) {
  const { taxIdId: id, taxIdCountry: country, taxIdType: type, taxIdValue: value } = row;
  if (id === null || country === null || type === null || value === null) return null;
  return {
    id,
    object: "tax_id" as const,
    live,
    country,
    type,
    value,
    owner,
    verification:
      row.taxIdVerificationStatus === null
        ? null
        : {
            status: row.taxIdVerificationStatus,
            valid: row.taxIdVerificationValid,
            completed_at: row.taxIdVerificationCompletedAt,
            verified_name: row.taxIdVerifiedName,
            verified_address: row.taxIdVerifiedAddress,
          },
  };
}

/** The `verification` of `taxIdOf` in SQL (JSON), as `addressJson`. */
export function verificationJson(t: SqlOf<Pick<TaxIdColumns, VerificationKey>>): SQL {
  return sql`json(CASE WHEN ${t.taxIdVerificationStatus} IS NULL THEN 'null'
    ELSE json_object('status', ${t.taxIdVerificationStatus},
      'valid', json(CASE ${t.taxIdVerificationValid} WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE 'null' END),
      'completed_at', ${t.taxIdVerificationCompletedAt}, 'verified_name', ${t.taxIdVerifiedName},
      'verified_address', ${t.taxIdVerifiedAddress}) END)`;
}

type VerificationKey =
  | "taxIdVerificationStatus"
  | "taxIdVerificationValid"
  | "taxIdVerificationCompletedAt"
  | "taxIdVerifiedName"
  | "taxIdVerifiedAddress";
