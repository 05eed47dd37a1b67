import { and, eq, gte, lte, not, type SQL, sql } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { ownedBy } from "../db/scope";
import { fromIndex, type Page, paginate } from "../http/pagination";
import { nowMs } from "../lib/clock";
import { accountToday } from "../lib/dates";
import { SERVED_COLUMNS } from "./find";
import { OWED } from "./owed";
import type { listInvoicesQuery } from "./schemas";

/**
 * Issued and still owed with a due date: written as the partial index `invoices_owed_list_idx`
 * states it, so `overdue=true` can read through that index (the WHERE implies the index's).
 */
const OWED_WITH_DUE_DATE = sql`${OWED} AND ${invoices.dueDate} IS NOT NULL`;

/**
 * `overdue` as `isOverdue` (serialize.ts) decides it, in SQL: owed and due before the caller's
 * today. Every issued invoice of an `es` account has a VERI*FACTU record, so the account's
 * regime gives the same today as the invoice's record does.
 */
function overdueFilter(caller: Caller, overdue: boolean | undefined): SQL | undefined {
  if (overdue === undefined) return undefined;
  const today = accountToday(caller.taxRegime === "es", nowMs());
  const isOverdue = sql`(${OWED_WITH_DUE_DATE} AND ${invoices.dueDate} < ${today})`;
  return overdue ? isOverdue : not(isOverdue);
}

/**
 * `overdue=true` reads through `invoices_owed_list_idx`, named: the owed invoices with a due
 * date, newest first, so a page reads its invoices plus the owed ones not due yet that are
 * newer. Left to itself, SQLite (the planner of recent workerd releases, without statistics)
 * takes `invoices_status_idx` for the same `status = 'issued'` term and walks every issued
 * invoice, paid ones included, until the page is full: 3,255 rows for a page of 25 at
 * 100,000 invoices (bench/README.md). With `customer` too, the owed invoices are still what
 * bounds the page (the customer index would walk the customer's paid ones).
 */
const OVERDUE_INDEX = fromIndex(invoices, "invoices_owed_list_idx");

/**
 * One page of the caller's invoices (drafts, issued and void alike), newest first, by
 * customer, type, series, status, payment status, overdue and an issue date range. Rows read
 * per page: docs/invoices.md, "Listing and filtering"; bench/README.md.
 */
export function listInvoices(
  db: Database,
  caller: Caller,
  query: z.output<typeof listInvoicesQuery>,
): Promise<Page<ServedInvoiceRow>> {
  const from = query["issue_date[gte]"];
  const to = query["issue_date[lte]"];
  const where = and(
    ownedBy(invoices, caller),
    query.customer === undefined ? undefined : eq(invoices.customerId, query.customer),
    query.type === undefined ? undefined : eq(invoices.type, query.type),
    query.series === undefined ? undefined : eq(invoices.series, query.series),
    query.status === undefined ? undefined : eq(invoices.status, query.status),
    query.payment_status === undefined ? undefined : eq(invoices.paymentStatus, query.payment_status),
    overdueFilter(caller, query.overdue),
    // A draft without an issue date stores '': below any date, so `gte` excludes it; `lte` must say so.
    from === undefined ? undefined : gte(invoices.issueDate, from),
    to === undefined ? undefined : and(lte(invoices.issueDate, to), sql`${invoices.issueDate} <> ''`),
  );
  return paginate<typeof invoices, ServedInvoiceRow>(
    db,
    invoices,
    "invoice",
    where,
    query,
    SERVED_COLUMNS,
    query.overdue === true ? OVERDUE_INDEX : undefined,
  );
}
