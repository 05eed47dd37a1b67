import { date } from "./format";
import { CORRECTION_REASON_TEXT, legalMentions } from "./mentions";
import { leading, type Sheet, type Style } from "./sheet";
import { paragraphs } from "./text";
import type { PdfInput } from "./types";

/** After the totals: legal mentions, what a corrective corrects and why, and the notes. */

const HEADING: Style = { size: 9, bold: true };
const BODY: Style = { size: 9 };

function section(sheet: Sheet, title: string): void {
  sheet.y -= 12;
  // A heading never ends a page without at least one line under it.
  sheet.ensure(leading(HEADING.size) + 2 * leading(BODY.size));
  sheet.text(title, sheet.left, sheet.y, HEADING);
  sheet.y -= leading(HEADING.size) + 2;
}

function drawMentions(sheet: Sheet, { invoice, corrected }: PdfInput): void {
  const mentions = legalMentions(invoice.tax_breakdown);
  if (invoice.corrects) {
    const what = corrected
      ? `la factura ${corrected.number} de ${date(corrected.issue_date)}`
      : `la factura ${invoice.corrects.invoice}`;
    mentions.unshift(
      `Rectifica ${what}. Motivo ${invoice.corrects.reason}: ${CORRECTION_REASON_TEXT[invoice.corrects.reason]}.`,
    );
  }
  if (mentions.length === 0) return;
  section(sheet, "Menciones legales");
  for (const mention of mentions) sheet.paragraph(mention, BODY);
}

function drawNotes(sheet: Sheet, { invoice }: PdfInput): void {
  const notes = invoice.notes?.trim() ? invoice.notes : null;
  if (!notes) return;
  section(sheet, "Notas");
  for (const line of paragraphs(notes)) {
    if (line.trim() === "") sheet.y -= leading(BODY.size) / 2;
    else sheet.paragraph(line, BODY);
  }
}

export function drawClosing(sheet: Sheet, input: PdfInput): void {
  drawMentions(sheet, input);
  drawNotes(sheet, input);
}
