import type { RecordSummary } from "../contracts/verifactu-record";
import type { ServedInvoiceRow } from "../db/schema";
import { nowMs } from "../lib/clock";
import { currencyExponent } from "../lib/currencies";
import { accountToday } from "../lib/dates";
import { formatMinor } from "../lib/money";
import { qrUrl } from "../verifactu/qr";
import { spanishNif } from "../verifactu/record";
import type { Invoice } from "./schemas";

/** A record's summary as `verifactu.records` shows it: with the URL of its XML. */
const withUrl = (invoiceId: string, r: RecordSummary) => ({
  ...r,
  url: `/v1/invoices/${invoiceId}/verifactu-records/${r.id}`,
});

/**
 * The invoice's VERI*FACTU records as the API shows them (verifactu-system.md §1, §2): the
 * top level is the latest registration or subsanación, `cancellation` the cancellation, if any,
 * and `records` all of them, oldest first. Null when it has none (`global`, drafts).
 */
function verifactuOf(row: ServedInvoiceRow, total: string): Invoice["verifactu"] {
  const records = row.verifactuRecords ?? [];
  const latest = records.findLast((r) => r.kind !== "cancellation");
  if (!latest) return null;
  const cancelled = records.findLast((r) => r.kind === "cancellation");
  return {
    status: latest.status,
    hash: latest.hash,
    previous_hash: latest.previous_hash,
    generated_at: latest.generated_at,
    qr_url: qrUrl({
      nif: spanishNif(row.issuer.tax_id) ?? "",
      number: row.number,
      date: row.issueDate,
      total,
      live: row.live,
    }),
    errors: latest.errors,
    records: records.map((r) => withUrl(row.id, r)),
    cancellation: cancelled
      ? {
          status: cancelled.status === "accepted_with_errors" ? "accepted" : cancelled.status,
          hash: cancelled.hash,
          previous_hash: cancelled.previous_hash,
          generated_at: cancelled.generated_at,
          csv: cancelled.csv,
          errors: cancelled.errors,
        }
      : null,
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
    // Invoices issued before a snapshot field existed read its default (docs/invoices.md).
    issuer: { ...row.issuer, einvoicing: row.issuer.einvoicing ?? null },
    customer: row.customer && { ...row.customer, einvoicing: row.customer.einvoicing ?? null },
    lines: row.lines.map(({ description, quantity, unit_code = "C62", ...l }) => ({
      description,
      quantity,
      unit_code,
      ...l,
      amount: money(l.amount),
    })),
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
