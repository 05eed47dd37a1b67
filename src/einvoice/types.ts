/** Shared by the UBL and Facturae generators (`ubl.ts`, `facturae.ts`). */

/** The invoice a corrective invoice corrects, as its document names it. */
export type CorrectedInvoice = { number: string; issue_date: string };

/**
 * The invoice lacks what the format's rules require (a customer, an electronic address…).
 * `missing` names each gap in words fit for an API user; the route answers 409
 * `einvoice_missing_data` with them.
 */
export class EinvoiceMissingDataError extends Error {
  readonly missing: readonly string[];
  constructor(format: "UBL" | "Facturae", missing: readonly string[]) {
    super(`The ${format} document cannot be built: ${missing.join("; ")}.`);
    this.name = "EinvoiceMissingDataError";
    this.missing = missing;
  }
}
