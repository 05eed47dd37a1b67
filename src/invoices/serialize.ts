import type { ServedInvoiceRow } from "../db/schema";
import { currencyExponent } from "../lib/currencies";
import { formatMinor } from "../lib/money";
import { qrUrl } from "../verifactu/qr";
import { spanishNif } from "../verifactu/record";
import type { Invoice } from "./schemas";

/** The invoice's VERI*FACTU record as the API shows it; null when it has none (`global`). */
function verifactuOf(row: ServedInvoiceRow, total: string): Invoice["verifactu"] {
  if (row.verifactuStatus === null || row.verifactuGeneratedAt === null) return null;
  return {
    status: row.verifactuStatus,
    hash: row.verifactuHash,
    previous_hash: row.verifactuPreviousHash,
    generated_at: new Date(row.verifactuGeneratedAt).toISOString(),
    qr_url: qrUrl({
      nif: spanishNif(row.issuer.tax_id) ?? "",
      number: row.number,
      date: row.issueDate,
      total,
      live: row.live,
    }),
    errors: row.verifactuErrors ?? [],
  };
}

/** The one place an invoice row becomes the API object: minor units become decimal strings. */
export function serializeInvoice(row: ServedInvoiceRow): Invoice {
  const exponent = currencyExponent(row.currency) ?? 2;
  const money = (minor: number) => formatMinor(BigInt(minor), exponent);
  return {
    id: row.id,
    object: "invoice",
    live: row.live,
    type: row.type,
    status: "issued",
    number: row.number,
    series: row.series,
    numbering: row.numbering,
    issue_date: row.issueDate,
    operation_date: row.operationDate,
    currency: row.currency,
    issuer: row.issuer,
    customer: row.customer,
    lines: row.lines.map((l) => ({ ...l, amount: money(l.amount) })),
    tax_breakdown: row.taxBreakdown.map((r) => ({
      ...r,
      base: money(r.base),
      amount: r.amount === null ? null : money(r.amount),
    })),
    subtotal: money(row.subtotal),
    total_tax_added: money(row.totalTaxAdded),
    total_tax_withheld: money(row.totalTaxWithheld),
    total: money(row.total),
    amount_payable: money(row.amountPayable),
    payment_terms: {
      due_date: row.paymentTerms.due_date,
      // The transfer reference the payer quotes is the invoice number.
      options: row.paymentTerms.options.map((o) => ({ ...o, reference: row.number })),
    },
    corrects:
      row.correctsInvoiceId && row.correctsReason
        ? { invoice: row.correctsInvoiceId, reason: row.correctsReason }
        : null,
    corrected_by: row.correctedBy,
    notes: row.notes,
    verifactu: verifactuOf(row, money(row.total)),
    created_at: row.createdAt,
  };
}
