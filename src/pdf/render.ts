import { PDFDocument } from "@pdfme/pdf-lib";
import { drawClosing } from "./closing";
import { embedSubset } from "./fontkit";
import { drawHeader, drawRunningHeader } from "./header";
import { drawLines } from "./lines";
import { TITLES } from "./mentions";
import { Sheet } from "./sheet";
import { Typeface } from "./text";
import { drawTotals } from "./totals";
import type { PdfAssets, PdfInput } from "./types";
import { DRAFT_MARK, drawWatermark, VOID_MARK } from "./watermark";

export type { PdfAssets, PdfInput } from "./types";

/** What every PDF names as its producer. */
export const PRODUCER = "invoicing-api";

/**
 * The invoice as an A4 PDF with the mentions of RD 1619/2012 art. 6 and, when `qrUrl` is set,
 * the VERI*FACTU QR. Pure (no I/O, no clock, no randomness): the same input and fonts give the
 * same bytes, dated by the invoice's `created_at`. Runs in Workers and in Node.
 *
 * @example
 * const pdf = await renderInvoicePdf({ invoice, corrected: null, qrUrl }, { font, bold });
 */
export async function renderInvoicePdf(input: PdfInput, assets: PdfAssets): Promise<Uint8Array> {
  const { invoice } = input;
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await embedSubset(doc, assets.font, "INVAPR");
  const bold = assets.bold ? await embedSubset(doc, assets.bold, "INVAPB") : regular;

  const title = `${TITLES[invoice.type].es} ${invoice.number}`;
  const created = new Date(invoice.created_at);
  doc.setTitle(title);
  doc.setAuthor(invoice.issuer.name);
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setLanguage("es");
  doc.setCreationDate(created);
  doc.setModificationDate(created);

  const sheet = new Sheet(doc, { regular: new Typeface(regular), bold: new Typeface(bold) });
  drawHeader(sheet, input);
  sheet.continued = (s) => drawRunningHeader(s, invoice);
  drawLines(sheet, invoice);
  drawTotals(sheet, invoice);
  drawClosing(sheet, input);
  sheet.footers(`${title} · ${invoice.issuer.name}`);
  // A void invoice keeps its number and stays readable, marked across every page.
  if (invoice.status === "void") drawWatermark(sheet, VOID_MARK);
  if (invoice.status === "draft") drawWatermark(sheet, DRAFT_MARK);
  return doc.save();
}
