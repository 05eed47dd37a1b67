import type { Invoice } from "../invoices/schemas";
import { decimal, money, withDecimals } from "./format";
import { lineTax } from "./mentions";
import type { Sheet } from "./sheet";
import { type Column, drawTable } from "./table";

/** The invoice lines: description, quantity, unit price, the taxes applied, amount. */

export const LINE_COLUMNS: readonly Column[] = [
  { header: "Descripción", width: 196, align: "left" },
  { header: "Cantidad", width: 52, align: "right" },
  { header: "Precio unitario", width: 78, align: "right" },
  { header: "Impuestos", width: 102, align: "left" },
  { header: "Importe", width: 82.24, align: "right" },
];

/** The currency's minor-unit digits, read off an amount the API formatted with exactly that many. */
const decimalsOf = (amount: string) => (amount.includes(".") ? amount.length - amount.indexOf(".") - 1 : 0);

export function drawLines(sheet: Sheet, invoice: Invoice): void {
  const rows = invoice.lines.map((line) => [
    { text: [line.description] },
    { text: [decimal(line.quantity)], fit: true },
    { text: [money(withDecimals(line.unit_price, decimalsOf(line.amount)), invoice.currency)], fit: true },
    { text: line.taxes.map(lineTax), style: { size: 8 } },
    { text: [money(line.amount, invoice.currency)], fit: true },
  ]);
  drawTable(sheet, LINE_COLUMNS, rows);
}
