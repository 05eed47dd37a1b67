import { and, asc, desc, eq, gt, gte, lt, lte, not, type SQL, sql } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { ownedBy } from "../db/scope";
import { cursorOf, fromIndex, type Page, pageOf, paginate, paginateByKey } from "../http/pagination";
import { nowMs } from "../lib/clock";
import { accountToday } from "../lib/dates";
import { isId } from "../lib/ids";
import { SERVED_COLUMNS } from "./find";
import { OWED } from "./owed";
import type { listInvoicesQuery } from "./schemas";

/** Issued and still owed with a due date: the terms every overdue index's WHERE starts with. */
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
 * `overdue=true` is read in two disjoint parts, split on `overdue_at` (so together they are
 * exactly what `overdueFilter` selects, whatever the job has done):
 *
 * - stamped: owed invoices the overdue job has announced (src/invoices/overdue.ts), newest
 *   first through a partial index that holds only them (`invoices_overdue_list_idx`, or
 *   `invoices_overdue_customer_idx` with `customer`): `limit + 1` entries, never the owed
 *   invoices not due yet, which are not stamped;
 * - the job's backlog: owed, due before today, not stamped yet, through the job's own
 *   `invoices_overdue_job_idx` by due date, then sorted by id: the invoices that fell due since
 *   the job's last runs (it stamps 100 a minute per shard).
 *
 * Each part gives at most `limit + 1` rows in the direction of travel, through the index it
 * names with `INDEXED BY` (SQLite alone walks `invoices_status_idx` and every issued invoice:
 * bench/README.md), and the page is the first `limit + 1` of the two merged by id. Rows read:
 * `limit + 1` stamped, plus an index entry and a row for each invoice of the database's backlog. The WHERE is the request's (the
 * full `overdueFilter` with the other filters) plus the part's `overdue_at` term, so the
 * partial indexes' WHEREs are implied.
 */
const STAMPED = sql`${invoices.overdueAt} IS NOT NULL`;
const UNSTAMPED = sql`${invoices.overdueAt} IS NULL`;

/** `overdue=true` needs `status = 'issued'` and an owed payment status: other values select nothing. */
const OWED_PAYMENT_STATUSES: readonly string[] = ["unpaid", "partially_paid"];

/**
 * One page of the caller's invoices (drafts, issued and void alike), newest first, by
 * customer, type, series, status, payment status, overdue and an issue date range. Rows read
 * per page: docs/invoices.md, "Listing and filtering"; bench/README.md.
 *
 * With `issue_date[gte]` or `issue_date[lte]` (and not `overdue=true`), newest issue date
 * first, then newest id: the range is walked in its index's order (`invoices_issue_date_idx`,
 * or `invoices_customer_issue_date_idx` with `customer`), `limit + 1` entries a page wherever
 * the range lies, where an id order would read the whole range and sort it (ids and issue
 * dates are not ordered together: drafts take their date when finalized, dates are
 * backdated). The other filters are checked on the range's invoices as they come.
 */
export function listInvoices(
  db: Database,
  caller: Caller,
  query: z.output<typeof listInvoicesQuery>,
): Promise<Page<ServedInvoiceRow>> {
  const from = query["issue_date[gte]"];
  const to = query["issue_date[lte]"];
  const filters = and(
    ownedBy(invoices, caller),
    query.customer === undefined ? undefined : eq(invoices.customerId, query.customer),
    query.type === undefined ? undefined : eq(invoices.type, query.type),
    query.series === undefined ? undefined : eq(invoices.series, query.series),
    query.status === undefined ? undefined : eq(invoices.status, query.status),
    query.payment_status === undefined ? undefined : eq(invoices.paymentStatus, query.payment_status),
    overdueFilter(caller, query.overdue),
  );
  // A draft without an issue date stores '': below any date, so `gte` excludes it; with `lte`
  // alone the range starts above it (a bound of the index range, where `<> ''` would be a filter).
  const lower =
    from !== undefined
      ? gte(invoices.issueDate, from)
      : to !== undefined
        ? gt(invoices.issueDate, "")
        : undefined;
  const upper = to === undefined ? undefined : lte(invoices.issueDate, to);
  if (query.overdue === true) return listOverdue(db, and(filters, lower, upper), query);
  if (lower !== undefined) {
    return paginateByKey<typeof invoices, ServedInvoiceRow>(
      db,
      invoices,
      "invoice",
      filters,
      { key: invoices.issueDate, lower, upper },
      query,
      SERVED_COLUMNS,
      fromIndex(
        invoices,
        query.customer === undefined ? "invoices_issue_date_idx" : "invoices_customer_issue_date_idx",
      ),
    );
  }
  return paginate<typeof invoices, ServedInvoiceRow>(db, invoices, "invoice", filters, query, SERVED_COLUMNS);
}

/**
 * `overdue=true`'s page: the stamped part and the backlog (see `STAMPED`), each `limit + 1`
 * rows at most, merged by id; the cursor checked by primary key against the whole `where`, in
 * the same batch. Rows read: `limit + 1` (+1 with a cursor) plus the job's backlog.
 */
async function listOverdue(
  db: Database,
  where: SQL | undefined,
  query: z.output<typeof listInvoicesQuery>,
): Promise<Page<ServedInvoiceRow>> {
  const { limit, backwards, cursor, invalidCursor } = cursorOf(query);
  if (cursor !== undefined && !isId("invoice", cursor)) throw invalidCursor();
  if (
    (query.status !== undefined && query.status !== "issued") ||
    (query.payment_status !== undefined && !OWED_PAYMENT_STATUSES.includes(query.payment_status))
  ) {
    // An empty list: no cursor is one of its ids.
    if (cursor !== undefined) throw invalidCursor();
    return { data: [], has_more: false };
  }

  const after =
    cursor === undefined ? undefined : backwards ? gt(invoices.id, cursor) : lt(invoices.id, cursor);
  const part = (index: string, stamp: SQL) =>
    db
      .select(SERVED_FIELDS)
      .from(fromIndex(invoices, index) as unknown as typeof invoices)
      .where(and(where, stamp, after))
      .orderBy(backwards ? asc(invoices.id) : desc(invoices.id))
      .limit(limit + 1);
  const stamped = part(
    query.customer === undefined ? "invoices_overdue_list_idx" : "invoices_overdue_customer_idx",
    STAMPED,
  );
  const backlog = part("invoices_overdue_job_idx", UNSTAMPED);

  let parts: ServedInvoiceRow[][];
  if (cursor === undefined) {
    parts = await db.batch([stamped, backlog]);
  } else {
    const check = db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(where, eq(invoices.id, cursor)))
      .limit(1);
    const [found, ...rest] = await db.batch([check, stamped, backlog]);
    if (found.length === 0) throw invalidCursor();
    parts = rest;
  }
  // Disjoint parts (`overdue_at` null or not): the first `limit + 1` of both, by id.
  const rows = parts
    .flat()
    .sort((a, b) => (backwards ? (a.id < b.id ? -1 : 1) : a.id > b.id ? -1 : 1))
    .slice(0, limit + 1);
  return pageOf(rows, limit, backwards);
}

/**
 * The served columns, each read as SQL decoded as its column (Drizzle selects a table's
 * columns only from the table itself, and the FROM here is `invoices INDEXED BY …`).
 */
const SERVED_FIELDS = Object.fromEntries(
  Object.entries(SERVED_COLUMNS).map(([name, column]) => [name, sql`${column}`.mapWith(column)]),
) as unknown as typeof SERVED_COLUMNS;
