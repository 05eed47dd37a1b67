import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import * as z from "zod";
import { ApiError } from "../http/errors";
import { isCountryCode } from "../lib/countries";
import { text, upperCaseCode } from "../lib/fields";

/**
 * What customers, the account's issuer profile and invoice snapshots share: an address, as
 * request schemas, as columns, as SQL and as the API object. (Their Tax ID: src/tax-ids/.)
 */

/** ISO 3166-1 alpha-2, uppercased on input (ASCII only, so "ſe" cannot become "SE"). */
export const countryCode = upperCaseCode(isCountryCode, "must be an ISO 3166-1 alpha-2 country code").meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: "ISO 3166-1 alpha-2 country code, in any case (`es` is read as `ES`).",
        pattern: "^[A-Za-z]{2}$",
      },
);

/** A complete address (create). */
export const addressInput = /* @__PURE__ */ z
  .object({
    line_1: text(200),
    line_2: text(200).nullable().optional(),
    city: text(200),
    postal_code: text(20),
    state: text(200).nullable().optional(),
    country: countryCode,
  })
  .strict();

/** An address update: omitted fields stay, `line_2`/`state` may be cleared with null. */
export const addressPatchInput = /* @__PURE__ */ z
  .object({
    line_1: text(200).optional(),
    line_2: text(200).nullable().optional(),
    city: text(200).optional(),
    postal_code: text(20).optional(),
    state: text(200).nullable().optional(),
    country: countryCode.optional(),
  })
  .strict();

export type AddressPatch = z.output<typeof addressPatchInput>;

export type AddressColumns = {
  addressLine1: string | null;
  addressLine2: string | null;
  addressCity: string | null;
  addressPostalCode: string | null;
  addressState: string | null;
  addressCountry: string | null;
};

const NO_ADDRESS: AddressColumns = {
  addressLine1: null,
  addressLine2: null,
  addressCity: null,
  addressPostalCode: null,
  addressState: null,
  addressCountry: null,
};

/**
 * The address after a create or update: `null` clears it, an object merges field by field
 * over the current address (`current`, null when there is none), and the result must be complete.
 */
export function addressColumns(patch: AddressPatch | null, current: AddressColumns | null): AddressColumns {
  if (patch === null) return NO_ADDRESS;
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

export type Address = {
  line_1: string;
  line_2: string | null;
  city: string;
  postal_code: string;
  state: string | null;
  country: string;
};

/** The address object, or null when none is stored (a stored address is always complete). */
export function addressOf(row: AddressColumns): Address | null {
  const {
    addressLine1: line_1,
    addressCity: city,
    addressPostalCode: postal_code,
    addressCountry: country,
  } = row;
  if (line_1 === null || city === null || postal_code === null || country === null) return null;
  return { line_1, line_2: row.addressLine2, city, postal_code, state: row.addressState, country };
}

/** Each column of `T` as SQL: a column, or an expression over the row being written. */
export type SqlOf<T> = { [K in keyof T]: SQLWrapper };

const ADDRESS_FIELDS = [
  ["line_1", "addressLine1"],
  ["line_2", "addressLine2"],
  ["city", "addressCity"],
  ["postal_code", "addressPostalCode"],
  ["state", "addressState"],
  ["country", "addressCountry"],
] as const;

/**
 * An address PATCH as an UPDATE's SET over the row's address `columns`: the sub-fields the
 * patch names are written, the others keep what the row holds at write time, so two
 * concurrent PATCHes of different address fields both survive. If a concurrent request
 * cleared the address in between, `merged` (the patch over the address this request read and
 * validated) is written whole instead, so a stored address is never incomplete.
 *
 * @example
 * const set = addressSet(body.address, addressColumns(body.address, current), customers);
 */
export function addressSet(
  patch: AddressPatch | null,
  merged: AddressColumns,
  columns: SqlOf<AddressColumns>,
): Record<keyof AddressColumns, SQL> {
  const written = {} as Record<keyof AddressColumns, SQL>;
  for (const [field, key] of ADDRESS_FIELDS) {
    written[key] =
      patch === null || patch[field] !== undefined
        ? sql`${merged[key]}`
        : sql`CASE WHEN ${columns.addressLine1} IS NULL THEN ${merged[key]} ELSE ${columns[key]} END`;
  }
  return written;
}

/**
 * `addressOf` in SQL (JSON, `null` when no address is stored), for an event snapshot the
 * database completes with values only it knows at write time (`fill` of `writeWithEvents`).
 */
export function addressJson(a: SqlOf<AddressColumns>): SQL {
  return sql`json(CASE WHEN ${a.addressLine1} IS NULL OR ${a.addressCity} IS NULL OR ${a.addressPostalCode} IS NULL OR ${a.addressCountry} IS NULL THEN 'null'
    ELSE json_object('line_1', ${a.addressLine1}, 'line_2', ${a.addressLine2}, 'city', ${a.addressCity},
      'postal_code', ${a.addressPostalCode}, 'state', ${a.addressState}, 'country', ${a.addressCountry}) END)`;
}

/** The address object of the API (a customer's, the issuer profile's, an invoice snapshot's). */
export const addressObject = /* @__PURE__ */ z
  .object({
    line_1: z.string(),
    line_2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    state: z.string().nullable(),
    country: z.string().describe(globalThis.OMIT_API_DOCS ? "" : "ISO 3166-1 alpha-2."),
  })
  .strict();
