import type { InvoiceType } from "../constants";

/** Series used when the request names none (Spanish practice keeps correctives apart). */
export const DEFAULT_SERIES: Record<InvoiceType, string> = {
  ordinary: "INV",
  simplified: "SIM",
  corrective: "COR",
};

/**
 * `INV-0001`, or `F26-ACME-0042` with customer numbering: at least four digits.
 *
 * @example
 * invoiceNumber("INV", null, 7) // "INV-0007"
 */
export function invoiceNumber(series: string, customerPrefix: string | null, counter: number): string {
  const digits = String(counter).padStart(4, "0");
  return customerPrefix === null ? `${series}-${digits}` : `${series}-${customerPrefix}-${digits}`;
}
