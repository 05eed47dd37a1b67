import type { Invoice } from "../invoices/schemas";

/**
 * What the e-invoices read from an invoice's snapshots beyond the PDF's fields: the lines' unit
 * codes and the parties' electronic addresses and DIR3 codes. Read through here only, so that the
 * generators do not depend on how the snapshot spells them.
 */

export type Dir3 = NonNullable<NonNullable<NonNullable<Invoice["customer"]>["einvoicing"]>["dir3"]>;

/** UN/ECE Recommendation 20 unit code of a line (the serializer gives old lines `C62`, "one"). */
export const unitCodeOf = (line: Invoice["lines"][number]): string => line.unit_code;

/** The customer's `peppol_id` (`<scheme>:<id>`), or null (also for invoices issued before it was recorded). */
export const customerPeppolId = (invoice: Invoice): string | null =>
  invoice.customer?.einvoicing?.peppol_id ?? null;

/** The customer's DIR3 codes (a Spanish public body), or null. */
export const customerDir3 = (invoice: Invoice): Dir3 | null => invoice.customer?.einvoicing?.dir3 ?? null;

/** The issuer's `peppol_id`, or null. */
export const issuerPeppolId = (invoice: Invoice): string | null =>
  invoice.issuer.einvoicing?.peppol_id ?? null;
