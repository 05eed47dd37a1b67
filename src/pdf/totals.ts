import type { Invoice } from "../invoices/schemas";
import { money, negated, percent } from "./format";
import { breakdownName } from "./mentions";
import { blockHeight, drawBlock, flowBlock, paymentLines } from "./payment";
import { HAIRLINE, INK, leading, MUTED, type Sheet, type Style } from "./sheet";
import { type Column, drawTable } from "./table";

/**
 * The tax breakdown, one row per rate as the invoice holds it (base, rate, quota; withheld
 * taxes shown as deductions), then the totals on the right with how to pay beside them.
 */

const BREAKDOWN_COLUMNS: readonly Column[] = [
  { header: "Impuesto", width: 210, align: "left" },
  { header: "Base imponible", width: 110, align: "right" },
  { header: "Tipo", width: 70, align: "right" },
  { header: "Cuota", width: 120.24, align: "right" },
];

const TOTALS_WIDTH = 250;
const VALUE_WIDTH = 130;
const GAP = 24;
const LABEL: Style = { size: 9, color: MUTED };

function drawBreakdown(sheet: Sheet, invoice: Invoice): void {
  if (invoice.tax_breakdown.length === 0) return;
  const rows = invoice.tax_breakdown.map((row) => {
    const quota =
      row.amount === null
        ? "—"
        : money(row.effect === "withheld" ? negated(row.amount) : row.amount, invoice.currency);
    return [
      { text: [breakdownName(row)] },
      { text: [money(row.base, invoice.currency)], fit: true },
      { text: [row.rate === null ? "—" : percent(row.rate)], fit: true },
      { text: [quota], fit: true },
    ];
  });
  drawTable(sheet, BREAKDOWN_COLUMNS, rows);
}

/** A totals row: its label in the row's style, its value in that style or shrunk to fit. */
type TotalRow = { label: string; style: Style; lines: string[]; valueStyle: Style };

function totalRows(sheet: Sheet, invoice: Invoice): TotalRow[] {
  const c = invoice.currency;
  const withheld = invoice.tax_breakdown.some((r) => r.effect === "withheld");
  const rows: [string, string, Style][] = [
    // Not "base imponible": exempt and not-subject lines count here too; each rate's base is a
    // row of the breakdown above.
    ["Subtotal", money(invoice.subtotal, c), { size: 9 }],
    ["Impuestos repercutidos", money(invoice.total_tax_added, c), { size: 9 }],
  ];
  if (withheld) rows.push(["Retenciones", money(negated(invoice.total_tax_withheld), c), { size: 9 }]);
  rows.push(["Total factura", money(invoice.total, c), { size: 10, bold: true }]);
  rows.push(["Importe a pagar", money(invoice.amount_payable, c), { size: 11, bold: true }]);
  return rows.map(([label, value, style]) => {
    const valueStyle = sheet.fit(value, VALUE_WIDTH, style);
    return { label, style, lines: sheet.wrap(value, VALUE_WIDTH, valueStyle), valueStyle };
  });
}

const rowHeight = (row: TotalRow) =>
  Math.max(leading(row.style.size), row.lines.length * leading(row.valueStyle.size)) + 5;

function drawTotalsBox(sheet: Sheet, rows: readonly TotalRow[], top: number): number {
  const x = sheet.right - TOTALS_WIDTH;
  let y = top;
  for (const row of rows) {
    if (row.style.bold)
      sheet.rule(y + 1, x, sheet.right, row.label === "Total factura" ? HAIRLINE : INK, 0.75);
    sheet.text(row.label, x, y - 3, row.style.bold ? { ...row.style, color: INK } : LABEL);
    sheet.lines(row.lines, sheet.right - VALUE_WIDTH, y - 3, row.valueStyle, "right", VALUE_WIDTH);
    y -= rowHeight(row);
  }
  return top - y;
}

export function drawTotals(sheet: Sheet, invoice: Invoice): void {
  sheet.y -= 10;
  drawBreakdown(sheet, invoice);
  sheet.y -= 12;
  const rows = totalRows(sheet, invoice);
  const totalsHeight = rows.reduce((h, r) => h + rowHeight(r), 0);
  const payment = paymentLines(sheet, invoice, sheet.width - TOTALS_WIDTH - GAP);
  const paymentHeight = blockHeight(payment);
  // Payment terms sit beside the totals, unless so many options would push them to a page of their own.
  const beside = paymentHeight <= (sheet.top - sheet.bottom) / 3;
  sheet.ensure(Math.max(totalsHeight, beside ? paymentHeight : 0));
  const top = sheet.y;
  const used = drawTotalsBox(sheet, rows, top);
  if (beside) {
    // The totals' text sits 3 pt below its rows' tops: the payment block follows it.
    sheet.y = top - Math.max(used, 3 + drawBlock(sheet, payment, sheet.left, top - 3));
  } else {
    sheet.y = top - used - 12;
    flowBlock(sheet, payment);
  }
}
