import type { ServedInvoiceRow } from "../db/schema";
import { nowMs } from "../lib/clock";
import { currencyExponent } from "../lib/currencies";
import { accountToday } from "../lib/dates";
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

/**
 * Whether an issued invoice is overdue today: still owed and its due date before today where
 * the account is (Europe/Madrid for `es` accounts, whose issued invoices all carry a
 * VERI*FACTU record; UTC otherwise).
 */
export function isOverdue(row: ServedInvoiceRow, ms = nowMs()): boolean {
  if (row.status !== "issued" || row.dueDate === null) return false;
  if (row.paymentStatus !== "unpaid" && row.paymentStatus !== "partially_paid") return false;
  return row.dueDate < accountToday(row.verifactuStatus !== null, ms);
}

/** The one place an invoice row becomes the API object: minor units become decimal strings. */
export function serializeInvoice(row: ServedInvoiceRow): Invoice {
  const exponent = currencyExponent(row.currency) ?? 2;
  const money = (minor: number) => formatMinor(BigInt(minor), exponent);
  const draft = row.status === "draft";
  return {
    id: row.id,
    object: "invoice",
    live: row.live,
    type: row.type,
    status: row.status,
    number: draft ? null : row.number,
    series: row.series,
    numbering: row.numbering,
    issue_date: row.issueDate === "" ? null : row.issueDate,
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
    payment_status: row.paymentStatus,
    amount_paid: draft ? null : money(row.amountPaid),
    amount_remaining: draft ? null : money(Math.max(0, row.amountPayable - row.amountPaid)),
    paid_on: row.paidOn,
    overdue: isOverdue(row),
    payment_terms: {
      due_date: row.paymentTerms.due_date,
      // The transfer reference the payer quotes is the invoice number.
      options: row.paymentTerms.options.map((o) => ({ ...o, reference: draft ? null : row.number })),
    },
    corrects:
      row.correctsInvoiceId && row.correctsReason
        ? { invoice: row.correctsInvoiceId, reason: row.correctsReason }
        : null,
    corrected_by: row.correctedBy,
    notes: row.notes,
    voided_at: row.voidedAt,
    void_reason: row.voidReason,
    verifactu: verifactuOf(row, money(row.total)),
    created_at: row.createdAt,
  };
}
