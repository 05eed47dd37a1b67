import type { Invoice } from "../invoices/schemas";
import { facturaeDocument } from "./facturae";
import { type CorrectedInvoice, EinvoiceMissingDataError } from "./types";
import { ublDocument } from "./ubl";

/** What the API sends the renderer Worker (`POST /ubl`, `POST /facturae`). */
export type EinvoiceInput = { invoice: Invoice; corrected: CorrectedInvoice | null };

export const EINVOICE_FORMATS = { ubl: ublDocument, facturae: facturaeDocument } as const;
export type EinvoiceFormat = keyof typeof EINVOICE_FORMATS;

/** The status the renderer answers when the invoice lacks what the format needs (its message as JSON). */
export const MISSING_DATA_STATUS = 422;

/**
 * The renderer Worker's answer (src/pdf/worker.ts): the document as `application/xml`, or 422
 * with `{message}` naming what is missing.
 */
export function einvoiceResponse(format: EinvoiceFormat, input: EinvoiceInput): Response {
  try {
    const xml = EINVOICE_FORMATS[format](input.invoice, input.corrected);
    return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
  } catch (err) {
    if (!(err instanceof EinvoiceMissingDataError)) throw err;
    return Response.json({ message: err.message }, { status: MISSING_DATA_STATUS });
  }
}
