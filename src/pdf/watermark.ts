import { rgb } from "@pdfme/pdf-lib";
import { MM, PAGE, type Sheet } from "./sheet";

/** What a void invoice's pages say across their top (lifecycle.md). */
export const VOID_MARK = "ANULADA / VOID";
/** What a draft's pages say: a preview, not an invoice (it has no number and no QR). */
export const DRAFT_MARK = "BORRADOR / DRAFT";

const RED = rgb(0.75, 0.09, 0.09);
const WHITE = rgb(1, 1, 1);
const SIZE = 13;
// In the top margin, above everything the page draws: nothing underneath is covered.
const BAND = { top: PAGE.height - 3 * MM, height: 10 * MM } as const;

/**
 * `label` on a red band across the top of every page, once all pages exist. A band rather
 * than a diagonal stamp: it sits in the margin, so the invoice stays legible, the QR scans,
 * and text extraction reads the label first instead of mixed into the page's lines.
 */
export function drawWatermark(sheet: Sheet, label: string): void {
  const style = { size: SIZE, bold: true, color: WHITE };
  for (const page of sheet.pages) {
    sheet.page = page;
    sheet.fill(sheet.left, BAND.top, sheet.width, BAND.height, RED);
    sheet.text(label, sheet.left, BAND.top - (BAND.height - SIZE) / 2, style, "center", sheet.width);
  }
}
