import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { TaxIdType } from "../constants";
import { type CustomerRow, customers as c } from "../db/schema";
import { type AddressColumns, addressColumns, addressJson, addressSet, type SqlOf } from "../party/address";
import { einvoicingColumns, einvoicingFill } from "../party/einvoicing";
import { newTaxIdColumns, verificationJson } from "../tax-ids/columns";
import type { NewTaxId } from "../tax-ids/write";
import type { UpdateCustomerBody } from "./schemas";

/** What a customer PATCH writes, and how its event snapshot is completed. */
export type CustomerChanges = {
  /** The UPDATE's SET: only the columns of the fields the request names, `updated_at`, `filter_country`. */
  set: SQLiteUpdateSetSource<typeof c>;
  /** The customer as read, with the request's changes (validated against that read). */
  next: CustomerRow;
  /**
   * Every field the request does not name, as SQL over the row its write finds: the event's
   * snapshot then shows what a concurrent request changed meanwhile, as RETURNING does.
   */
  fill: Record<string, SQL>;
  /** The new Tax ID object when the request replaces `tax_id` (its own row goes into `tax_ids`). */
  taxId: NewTaxId | null;
};

const SCALARS = [
  ["name", "name"],
  ["invoice_prefix", "invoicePrefix"],
  ["email", "email"],
  ["phone", "phone"],
] as const;

const STORED_ADDRESS: SqlOf<AddressColumns> = {
  addressLine1: c.addressLine1,
  addressLine2: c.addressLine2,
  addressCity: c.addressCity,
  addressPostalCode: c.addressPostalCode,
  addressState: c.addressState,
  addressCountry: c.addressCountry,
};

/**
 * Every field of a customer's event snapshot as SQL over the row its write finds: what a
 * concurrent request changed meanwhile shows, as RETURNING would. A delete's event takes them
 * all; an update's those its request does not name.
 */
export function storedCustomerFill(): Record<string, SQL> {
  const fill: Record<string, SQL> = {};
  for (const [field, key] of SCALARS) fill[`$.${field}`] = sql`${c[key]}`;
  fill["$.tax_id.id"] = sql`${c.taxIdId}`;
  fill["$.tax_id.country"] = sql`${c.taxIdCountry}`;
  fill["$.tax_id.type"] = sql`${c.taxIdType}`;
  fill["$.tax_id.value"] = sql`${c.taxIdValue}`;
  fill["$.tax_id.verification"] = verificationJson(c);
  fill["$.address"] = addressJson(STORED_ADDRESS);
  Object.assign(fill, einvoicingFill(c));
  fill["$.updated_at"] = sql`${c.updatedAt}`;
  return fill;
}

/**
 * Writes only what the request names, so that two concurrent PATCHes of different fields
 * both survive (D1 runs one write at a time; the SET's expressions see the row as it is then).
 * A `tax_id` is replaced whole (a new Tax ID object); an address merges by field, at write
 * time too (`addressSet`).
 *
 * @example
 * const { set, next, fill } = customerChanges({ email: null }, current, nowIso(), verifiesFor(caller, c.env));
 */
export function customerChanges(
  body: UpdateCustomerBody,
  current: CustomerRow,
  now: string,
  verifies: (tax: { type: TaxIdType; value: string }) => boolean,
): CustomerChanges {
  const set: Record<string, unknown> = { updatedAt: now };
  const next: CustomerRow = { ...current, updatedAt: now };
  // What the request names is written; the rest of the snapshot comes from the row.
  const { "$.updated_at": _, ...fill } = storedCustomerFill();

  for (const [field, key] of SCALARS) {
    const value = body[field];
    if (value === undefined) continue;
    set[key] = (next as Record<string, unknown>)[key] = value;
    delete fill[`$.${field}`];
  }

  let taxIdCountry: SQLWrapper = c.taxIdCountry;
  let taxId: NewTaxId | null = null;
  if (body.tax_id !== undefined) {
    taxId = newTaxIdColumns(body.tax_id, verifies);
    Object.assign(set, taxId);
    Object.assign(next, taxId);
    taxIdCountry = sql`${taxId.taxIdCountry}`;
    for (const path of Object.keys(fill)) if (path.startsWith("$.tax_id.")) delete fill[path];
  }

  // Each einvoicing field is its own column: one named is written, the other stays.
  const einvoicing = einvoicingColumns(body.einvoicing);
  Object.assign(set, einvoicing);
  Object.assign(next, einvoicing);
  if ("einvoicingPeppolId" in einvoicing) delete fill["$.einvoicing.peppol_id"];
  if ("einvoicingDir3" in einvoicing) delete fill["$.einvoicing.dir3"];

  let addressCountry: SQLWrapper = c.addressCountry;
  if (body.address !== undefined) {
    const merged = addressColumns(body.address, current.addressLine1 ? current : null);
    Object.assign(next, merged);
    const written = addressSet(body.address, merged, c);
    Object.assign(set, written);
    fill["$.address"] = addressJson(written);
    addressCountry = written.addressCountry;
  }

  // The list's country filter: the address country, else the Tax ID country, as written.
  if (body.address !== undefined || body.tax_id !== undefined) {
    set.filterCountry = sql`coalesce(${addressCountry}, ${taxIdCountry})`;
  }
  return { set: set as CustomerChanges["set"], next, fill, taxId };
}
