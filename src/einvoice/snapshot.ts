import type { Invoice } from "../invoices/schemas";

/**
 * What the e-invoices read from an invoice's snapshots beyond the PDF's fields: the lines' unit
 * codes and the parties' electronic addresses and DIR3 codes. Read through here only, so that the
 * generators do not depend on how the snapshot spells them.
 */

export type Dir3 = {
  accounting_office: string;
  managing_body: string;
  processing_unit: string;
  proposing_body?: string | null;
};

type Einvoicing = { peppol_id?: string | null; dir3?: Dir3 | null } | null | undefined;
type WithEinvoicing = { einvoicing?: Einvoicing };

/** UN/ECE Recommendation 20 unit code of a line; `C62` ("one") when the line has none. */
export const unitCodeOf = (line: Invoice["lines"][number]): string =>
  (line as { unit_code?: string | null }).unit_code ?? "C62";

/** The customer's `peppol_id` (`<scheme>:<id>`), or null. */
export const customerPeppolId = (invoice: Invoice): string | null =>
  (invoice.customer as WithEinvoicing | null)?.einvoicing?.peppol_id ?? null;

/** The customer's DIR3 codes (a Spanish public body), or null. */
export const customerDir3 = (invoice: Invoice): Dir3 | null =>
  (invoice.customer as WithEinvoicing | null)?.einvoicing?.dir3 ?? null;

/** The issuer's `peppol_id`, or null. */
export const issuerPeppolId = (invoice: Invoice): string | null =>
  (invoice.issuer as WithEinvoicing).einvoicing?.peppol_id ?? null;
