import type { Invoice } from "../invoices/schemas";
import { date, iban } from "./format";
import { leading, type Sheet, type Style } from "./sheet";

/** How to pay: the due date and each payment option, with the invoice number as the reference. */

export const HEADING: Style = { size: 9, bold: true };
const BODY: Style = { size: 9 };

/** One printed line of a block. */
export type BlockLine = { text: string; style: Style; gapBefore?: number };

/** The block's lines wrapped to `width`, or none when the invoice says nothing about payment. */
export function paymentLines(sheet: Sheet, invoice: Invoice, width: number): BlockLine[] {
  const { due_date, options } = invoice.payment_terms;
  if (!due_date && options.length === 0) return [];
  const out: BlockLine[] = [{ text: "Forma de pago", style: HEADING }];
  const add = (text: string, style = BODY, gapBefore = 0) =>
    sheet.wrap(text, width, style).forEach((line, i) => {
      out.push({ text: line, style, gapBefore: i === 0 ? gapBefore : 0 });
    });
  if (due_date) add(`Vencimiento: ${date(due_date)}`);
  for (const option of options) {
    const t = option.bank_transfer;
    add("Transferencia bancaria", { ...BODY, bold: true }, 4);
    add(`Beneficiario: ${t.beneficiary}`);
    add(`IBAN: ${iban(t.iban)}`);
    if (t.bic) add(`BIC: ${t.bic}`);
    add(`Concepto (referencia): ${option.reference}`);
  }
  return out;
}

export const blockHeight = (lines: readonly BlockLine[]) =>
  lines.reduce((h, l) => h + leading(l.style.size) + (l.gapBefore ?? 0), 0);

/** Draws lines from `top` at `x` (no page break: the caller made room). */
export function drawBlock(sheet: Sheet, lines: readonly BlockLine[], x: number, top: number): number {
  let y = top;
  for (const line of lines) {
    y -= line.gapBefore ?? 0;
    sheet.text(line.text, x, y, line.style);
    y -= leading(line.style.size);
  }
  return top - y;
}

/** Draws lines at the cursor, breaking pages between lines (a block too tall to sit beside the totals). */
export function flowBlock(sheet: Sheet, lines: readonly BlockLine[]): void {
  for (const line of lines) {
    sheet.y -= line.gapBefore ?? 0;
    sheet.ensure(leading(line.style.size));
    sheet.text(line.text, sheet.left, sheet.y, line.style);
    sheet.y -= leading(line.style.size);
  }
}
