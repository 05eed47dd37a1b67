import type { Invoice } from "../invoices/schemas";

/** What the renderer draws: the invoice as the API returns it, plus what the invoice alone does not hold. */
export interface PdfInput {
  invoice: Invoice;
  /** The invoice a corrective corrects (its number and issue date are mentions of RD 1619/2012 art. 15). */
  corrected: { number: string; issue_date: string } | null;
  /** The VERI*FACTU QR's URL (`src/verifactu/qr.ts`) for `es` accounts; null draws no QR. */
  qrUrl: string | null;
}

/**
 * TrueType or OpenType font bytes, passed in so that the module never loads files: the runtime
 * (a Worker's bundled data module, Node's `readFileSync`) decides how. Only the glyphs an
 * invoice uses are embedded. Without `bold`, headings use the regular font.
 */
export interface PdfAssets {
  font: Uint8Array;
  bold?: Uint8Array;
}
