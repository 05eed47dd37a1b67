import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  CORRECTION_REASONS,
  INVOICE_NUMBERINGS,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  PAYMENT_STATUSES,
  type TaxEffect,
  type TaxTreatment,
  VERIFACTU_STATUSES,
} from "../../constants";
import type { RecordSummary } from "../../contracts/verifactu-record";
import { accounts } from "./accounts";
import { customers, type StoredDir3 } from "./customers";

type Address = {
  line_1: string;
  line_2: string | null;
  city: string;
  postal_code: string;
  state: string | null;
  country: string;
};
type SnapshotTaxId = { country: string; type: string; value: string };
/** A tax as applied to a line (custom taxes have `tax`, `rule` and `authority_code` null). */
export type AppliedTax = {
  tax: string | null;
  rule: string | null;
  name: string;
  treatment: TaxTreatment;
  effect: TaxEffect;
  rate: string | null;
  authority_code: string | null;
};

/** The JSON snapshots of an invoice row; amounts are integer minor units. */
export type StoredIssuer = {
  name: string;
  tax_id: SnapshotTaxId | null;
  address: Address | null;
  /** Absent on invoices issued before it was snapshotted. */
  einvoicing?: { peppol_id: string | null };
};
export type StoredCustomer = {
  id: string;
  name: string;
  tax_id: SnapshotTaxId & { id: string };
  email: string | null;
  phone: string | null;
  address: Address | null;
  /** Absent on invoices issued before it was snapshotted. */
  einvoicing?: { peppol_id: string | null; dir3: StoredDir3 | null };
};
export type StoredLine = {
  description: string;
  quantity: string;
  /** UN/ECE Rec 20; absent on lines stored before it existed, which read "C62". */
  unit_code?: string;
  unit_price: string;
  amount: number;
  taxes: AppliedTax[];
};
export type StoredBreakdownRow = AppliedTax & {
  description: string;
  legal_reference: string | null;
  base: number;
  amount: number | null;
};
export type StoredPaymentTerms = {
  due_date: string | null;
  options: {
    payment_instruction: string;
    type: "bank_transfer";
    bank_transfer: { beneficiary: string; iban: string; bic: string | null };
  }[];
};

/**
 * An issued invoice: immutable but for `corrected_by`. Snapshots (issuer, customer, lines,
 * breakdown, payment terms) are JSON with amounts in integer minor units; the API's decimal
 * strings are made by the serializer.
 *
 * Numbering: `counter` is unique per (account, environment, series, counter_key), where
 * `counter_key` is "" for series numbering and the customer id for customer numbering. The
 * INSERT takes its own number (`nextCounter`, src/invoices/numbering.ts: the last counter
 * plus one, read by the same statement), and D1 runs one batch at a time, so concurrent
 * issues queue instead of racing; the unique index is the backstop. Numbers are gapless and a
 * rejected request consumes none.
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    type: text("type", { enum: INVOICE_TYPES }).notNull(),
    series: text("series").notNull(),
    numbering: text("numbering", { enum: INVOICE_NUMBERINGS }).notNull(),
    counterKey: text("counter_key").notNull(),
    counter: integer("counter").notNull(),
    number: text("number").notNull(),
    issueDate: text("issue_date").notNull(),
    operationDate: text("operation_date"),
    /** The dates the taxes resolved on (a corrective copies its corrected invoice's). */
    supplyTaxDate: text("supply_tax_date").notNull(),
    withholdingTaxDate: text("withholding_tax_date").notNull(),
    currency: text("currency").notNull(),
    /** The referenced customer: the foreign key makes a customer with invoices undeletable. */
    customerId: text("customer_id").references(() => customers.id),
    issuer: text("issuer", { mode: "json" }).$type<StoredIssuer>().notNull(),
    customer: text("customer", { mode: "json" }).$type<StoredCustomer>(),
    lines: text("lines", { mode: "json" }).$type<StoredLine[]>().notNull(),
    taxBreakdown: text("tax_breakdown", { mode: "json" }).$type<StoredBreakdownRow[]>().notNull(),
    subtotal: integer("subtotal").notNull(),
    totalTaxAdded: integer("total_tax_added").notNull(),
    totalTaxWithheld: integer("total_tax_withheld").notNull(),
    total: integer("total").notNull(),
    amountPayable: integer("amount_payable").notNull(),
    paymentTerms: text("payment_terms", { mode: "json" }).$type<StoredPaymentTerms>().notNull(),
    correctsInvoiceId: text("corrects_invoice_id").references((): AnySQLiteColumn => invoices.id),
    correctsReason: text("corrects_reason", { enum: CORRECTION_REASONS }),
    /** JSON array of corrective invoice ids: the only column that changes after issuance. */
    correctedBy: text("corrected_by", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    notes: text("notes"),
    createdAt: text("created_at").notNull(),
    // VERI*FACTU (`es` accounts; null on `global`). The records themselves are rows of
    // `verifactu_records`; the invoice keeps their summary, oldest first, written in the same
    // batches, so that serving an invoice reads one row.
    /** The latest registration's or subsanación's status. */
    verifactuStatus: text("verifactu_status", { enum: VERIFACTU_STATUSES }),
    verifactuRecords: text("verifactu_records", { mode: "json" }).$type<RecordSummary[]>(),
    // The lifecycle (lifecycle.md). `payment_status` and `due_date` are kept as columns, not
    // computed, so the list filters and the overdue job read them through indexes.
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("issued"),
    /** Null on drafts; kept by every payment write in the same batch as the payment. */
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }),
    /** The sum of its payments, in minor units: never above `amount_payable`. */
    amountPaid: integer("amount_paid").notNull().default(0),
    /** The `paid_on` of the payment that made it `paid`. */
    paidOn: text("paid_on"),
    /** `payment_terms.due_date`, as a column for the overdue filter and job. */
    dueDate: text("due_date"),
    voidedAt: text("voided_at"),
    voidReason: text("void_reason"),
    /**
     * A draft's request as sent (the body of `POST /v1/invoices` without `draft`, merged with
     * each PATCH): finalizing issues exactly this, through the one issuance path. Null once
     * issued. Its other columns are the preview computed from it; a draft has no number
     * (`number` '', `counter` 0 under a `counter_key` of its own id) and `issue_date` '' when
     * the request has none (migration 0024).
     */
    draftRequest: text("draft_request", { mode: "json" }).$type<Record<string, unknown>>(),
    /** When `invoice.overdue` was recorded: once per invoice. */
    overdueAt: text("overdue_at"),
    /** When the PDF was first stored in R2 (`invoice.pdf.generated`); null until then. */
    pdfGeneratedAt: text("pdf_generated_at"),
    /** When the cron sweep asked for the PDF again: it does so at most once (`sweepMissingPdfs`). */
    pdfSweptAt: text("pdf_swept_at"),
    /**
     * When the archive (R2 `ARCHIVE`, src/archive/) last held the invoice as it stands: its JSON,
     * PDF and VERI*FACTU records. Cleared by a trigger when it is voided or gains a record
     * (migration 0033), so the archive adds the new state's objects.
     */
    archivedAt: text("archived_at"),
  },
  (t) => [
    index("invoices_list_idx").on(t.accountId, t.live, t.id),
    uniqueIndex("invoices_counter_idx").on(t.accountId, t.live, t.series, t.counterKey, t.counter),
    // The foreign key's lookup when a customer is deleted.
    index("invoices_customer_idx").on(t.customerId, t.id),
    // The `customer` list filter: bounded by the page, whatever the account holds.
    index("invoices_customer_list_idx").on(t.accountId, t.live, t.customerId, t.id),
    index("invoices_type_idx").on(t.accountId, t.live, t.type, t.id),
    index("invoices_series_idx").on(t.accountId, t.live, t.series, t.id),
    index("invoices_corrects_idx").on(t.correctsInvoiceId),
    // The `status` and `payment_status` list filters.
    index("invoices_status_idx").on(t.accountId, t.live, t.status, t.id),
    index("invoices_payment_status_idx").on(t.accountId, t.live, t.paymentStatus, t.id),
    // `overdue=true`: the owed invoices the overdue job has stamped (`overdue_at`), which are
    // overdue for good while owed, newest first; the job's backlog is read through
    // `invoices_overdue_job_idx` (src/invoices/list.ts, docs/invoices.md).
    index("invoices_overdue_list_idx")
      .on(t.accountId, t.live, t.id)
      .where(
        sql`${t.status} = 'issued' AND ${t.paymentStatus} IN ('unpaid', 'partially_paid') AND ${t.dueDate} IS NOT NULL AND ${t.overdueAt} IS NOT NULL`,
      ),
    index("invoices_overdue_customer_idx")
      .on(t.accountId, t.live, t.customerId, t.id)
      .where(
        sql`${t.status} = 'issued' AND ${t.paymentStatus} IN ('unpaid', 'partially_paid') AND ${t.dueDate} IS NOT NULL AND ${t.overdueAt} IS NOT NULL`,
      ),
    // The `issue_date[gte]`/`issue_date[lte]` list filters, alone and with `customer`: a page
    // walks the range newest issue date first, then id, `limit + 1` entries wherever it lies
    // (src/invoices/list.ts, docs/invoices.md).
    index("invoices_issue_date_idx").on(t.accountId, t.live, t.issueDate, t.id),
    index("invoices_customer_issue_date_idx").on(t.accountId, t.live, t.customerId, t.issueDate, t.id),
    // The overdue job: issued invoices still owed whose due date passed and that were not yet
    // announced, by due date.
    index("invoices_overdue_job_idx")
      .on(t.dueDate)
      .where(
        sql`${t.status} = 'issued' AND ${t.paymentStatus} IN ('unpaid', 'partially_paid') AND ${t.overdueAt} IS NULL AND ${t.dueDate} IS NOT NULL`,
      ),
    // The PDF sweep: invoices whose PDF is not stored yet and not swept yet, oldest first. A
    // draft's PDF is never stored (it is rendered on demand, marked).
    index("invoices_pdf_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.pdfGeneratedAt} IS NULL AND ${t.pdfSweptAt} IS NULL AND ${t.status} <> 'draft'`),
    // The archive sweep: issued or void invoices whose PDF is stored and whose archive is not
    // complete yet, oldest first (src/archive/sweep.ts).
    index("invoices_archive_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.archivedAt} IS NULL AND ${t.pdfGeneratedAt} IS NOT NULL AND ${t.status} <> 'draft'`),
  ],
);

export type InvoiceRow = typeof invoices.$inferSelect;
/** An invoice as it is served (JSON, PDF). */
export type ServedInvoiceRow = InvoiceRow;

/**
 * Stored responses of POSTs sent with `Idempotency-Key`, per account, environment and key,
 * for 24 hours. `response_status` is null while the first request runs.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    live: integer("live", { mode: "boolean" }).notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseContentType: text("response_content_type"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_key_idx").on(t.accountId, t.live, t.key),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);
