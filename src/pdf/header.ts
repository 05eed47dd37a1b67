import type { Invoice } from "../invoices/schemas";
import { addressLines, date, money, taxId } from "./format";
import { TITLES } from "./mentions";
import { drawQrBlock, QR_BLOCK_WIDTH } from "./qr";
import { BODY_SIZE, leading, MUTED, type Sheet, type Style } from "./sheet";
import type { PdfInput } from "./types";

/**
 * The top of the first page: title, the invoice's identity and dates, the QR at the start of
 * the invoice as AEAT asks, the parties, and the amount payable.
 */

const LABEL: Style = { size: 8, color: MUTED };
const VALUE: Style = { size: BODY_SIZE };
/** The gutter between the issuer and recipient columns (and around the QR block). */
export const GAP = 18;

/** Label/value pairs in two columns; returns the height used. */
function keyValues(sheet: Sheet, pairs: readonly [string, string][], x: number, top: number, width: number) {
  const labelWidth = 110;
  let y = top;
  for (const [label, value] of pairs) {
    const lines = sheet.wrap(value, width - labelWidth, VALUE);
    sheet.text(label, x, y - 1, LABEL);
    y -= sheet.lines(lines, x + labelWidth, y, VALUE);
  }
  return top - y;
}

function details({ invoice, corrected }: PdfInput): [string, string][] {
  const pairs: [string, string][] = [
    // A draft has neither yet: its mark says so (BORRADOR / DRAFT).
    ["Número de factura", invoice.number ?? "—"],
    ["Serie", invoice.series],
    ["Fecha de expedición", invoice.issue_date ? date(invoice.issue_date) : "—"],
  ];
  if (invoice.operation_date && invoice.operation_date !== invoice.issue_date) {
    pairs.push(["Fecha de operación", date(invoice.operation_date)]);
  }
  if (invoice.payment_terms.due_date) pairs.push(["Vencimiento", date(invoice.payment_terms.due_date)]);
  pairs.push(["Moneda", invoice.currency]);
  if (invoice.corrects) {
    const what = corrected
      ? `${corrected.number} de ${date(corrected.issue_date)}`
      : invoice.corrects.invoice;
    pairs.push(["Rectifica a", what]);
  }
  return pairs;
}

type Party = { title: string; name: string; lines: string[] };

function parties(invoice: Invoice): Party[] {
  const { issuer, customer } = invoice;
  const list: Party[] = [
    {
      title: "Emisor",
      name: issuer.name,
      lines: [
        ...(issuer.tax_id ? [taxId(issuer.tax_id)] : []),
        ...(issuer.address ? addressLines(issuer.address) : []),
      ],
    },
  ];
  if (customer) {
    list.push({
      title: "Destinatario",
      name: customer.name,
      lines: [
        taxId(customer.tax_id),
        ...(customer.address ? addressLines(customer.address) : []),
        ...(customer.email ? [customer.email] : []),
        ...(customer.phone ? [customer.phone] : []),
      ],
    });
  }
  return list;
}

function drawParties(sheet: Sheet, invoice: Invoice): void {
  const width = (sheet.width - GAP) / 2;
  let bottom = sheet.y;
  parties(invoice).forEach((party, i) => {
    const x = sheet.left + i * (width + GAP);
    let y = sheet.y;
    sheet.text(party.title.toUpperCase(), x, y, { ...LABEL, bold: true });
    y -= leading(LABEL.size) + 2;
    y -= sheet.lines(sheet.wrap(party.name, width, { size: 10, bold: true }), x, y, { size: 10, bold: true });
    for (const line of party.lines) y -= sheet.lines(sheet.wrap(line, width, VALUE), x, y, VALUE);
    bottom = Math.min(bottom, y);
  });
  sheet.y = bottom;
}

export function drawHeader(sheet: Sheet, input: PdfInput): void {
  const { invoice, qrUrl } = input;
  const top = sheet.y;
  const width = qrUrl ? sheet.width - QR_BLOCK_WIDTH - GAP : sheet.width;
  const title = TITLES[invoice.type];
  let y = top;
  sheet.text(title.es, sheet.left, y, { size: 20, bold: true });
  y -= leading(20);
  sheet.text(title.en, sheet.left, y, { size: 9, color: MUTED });
  y -= leading(9) + 10;
  y -= keyValues(sheet, details(input), sheet.left, y, width);
  const qrHeight = qrUrl ? drawQrBlock(sheet, qrUrl, sheet.right - QR_BLOCK_WIDTH, top) : 0;
  sheet.y = Math.min(y, top - qrHeight) - GAP;
  drawParties(sheet, invoice);
  sheet.y -= GAP;
  const due = invoice.payment_terms.due_date;
  const amount = `${money(invoice.amount_payable, invoice.currency)}${due ? ` · vence el ${date(due)}` : ""}`;
  sheet.text("Importe a pagar", sheet.left, sheet.y, { size: 9, color: MUTED });
  sheet.y -= leading(9);
  sheet.y -= sheet.lines(sheet.wrap(amount, sheet.width, { size: 15, bold: true }), sheet.left, sheet.y, {
    size: 15,
    bold: true,
  });
  sheet.y -= GAP / 2;
}

/** The top of every further page: which invoice this is. */
export function drawRunningHeader(sheet: Sheet, invoice: Invoice): void {
  const line = `${TITLES[invoice.type].es} ${invoice.number ?? "—"} · ${invoice.issue_date ? date(invoice.issue_date) : "—"} (continuación)`;
  sheet.text(sheet.wrap(line, sheet.width, LABEL)[0] ?? "", sheet.left, sheet.y, LABEL);
  sheet.y -= leading(LABEL.size) + 8;
}
