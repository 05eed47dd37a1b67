import type { CustomerRow } from "../../db/schema";
import { nowIso } from "../../lib/clock";
import { ApiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { checkTaxId, type TaxIdType } from "../../lib/tax-id";

// Six letters A–Z without I and O: unambiguous when read aloud or printed.
const PREFIX_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";

/** A random six-letter invoice prefix (rejection sampling, so every letter is equally likely). */
export function generateInvoicePrefix(): string {
  let out = "";
  while (out.length < 6) {
    for (const b of crypto.getRandomValues(new Uint8Array(8))) {
      if (b < 240 && out.length < 6) out += PREFIX_LETTERS[b % 24];
    }
  }
  return out;
}

export function prefixTaken(prefix: string): ApiError {
  return new ApiError(
    "invoice_prefix_taken",
    `invoice_prefix '${prefix}' is already used by another customer.`,
    { param: "invoice_prefix" },
  );
}

/** Validates a Tax ID input and returns the columns of a new Tax ID object (new `txi_` id). */
export function newTaxIdColumns(input: { country: string; type: TaxIdType; value: string }) {
  const check = checkTaxId(input);
  if (!check.ok) throw new ApiError("parameter_invalid", check.message, { param: check.param });
  return {
    taxIdId: newId("taxId"),
    taxIdCountry: check.country,
    taxIdType: check.type,
    taxIdValue: check.value,
    // Registry verification arrives with its own issue; null is "unavailable" in the seed.
    taxIdVerificationStatus: null,
    taxIdVerificationValid: null,
    taxIdVerificationCompletedAt: null,
    taxIdCreatedAt: nowIso(),
  } satisfies Partial<CustomerRow>;
}

type AddressColumns = Pick<
  CustomerRow,
  "addressLine1" | "addressLine2" | "addressCity" | "addressPostalCode" | "addressState" | "addressCountry"
>;

export type AddressPatch = {
  line_1?: string | undefined;
  line_2?: string | null | undefined;
  city?: string | undefined;
  postal_code?: string | undefined;
  state?: string | null | undefined;
  country?: string | undefined;
};

/**
 * The address after a create or update: `null` clears it, an object merges field by field
 * over the current address, and the result must be complete.
 */
export function addressColumns(patch: AddressPatch | null, current: AddressColumns | null): AddressColumns {
  if (patch === null) {
    return {
      addressLine1: null,
      addressLine2: null,
      addressCity: null,
      addressPostalCode: null,
      addressState: null,
      addressCountry: null,
    };
  }
  const merged: AddressColumns = {
    addressLine1: patch.line_1 ?? current?.addressLine1 ?? null,
    addressLine2: patch.line_2 !== undefined ? patch.line_2 : (current?.addressLine2 ?? null),
    addressCity: patch.city ?? current?.addressCity ?? null,
    addressPostalCode: patch.postal_code ?? current?.addressPostalCode ?? null,
    addressState: patch.state !== undefined ? patch.state : (current?.addressState ?? null),
    addressCountry: patch.country ?? current?.addressCountry ?? null,
  };
  const required = [
    ["line_1", merged.addressLine1],
    ["city", merged.addressCity],
    ["postal_code", merged.addressPostalCode],
    ["country", merged.addressCountry],
  ] as const;
  for (const [field, value] of required) {
    if (value === null) {
      throw new ApiError("parameter_missing", `An address must be complete: address.${field} is required.`, {
        param: `address.${field}`,
      });
    }
  }
  return merged;
}
