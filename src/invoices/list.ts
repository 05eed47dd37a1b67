import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import { SERVED_COLUMNS } from "./find";
import type { listInvoicesQuery } from "./schemas";

/** One page of the caller's invoices, newest first, by customer, type or series. */
export function listInvoices(
  db: Database,
  caller: Caller,
  query: z.output<typeof listInvoicesQuery>,
): Promise<Page<ServedInvoiceRow>> {
  const where = and(
    ownedBy(invoices, caller),
    query.customer === undefined ? undefined : eq(invoices.customerId, query.customer),
    query.type === undefined ? undefined : eq(invoices.type, query.type),
    query.series === undefined ? undefined : eq(invoices.series, query.series),
  );
  return paginate<typeof invoices, ServedInvoiceRow>(db, invoices, "invoice", where, query, SERVED_COLUMNS);
}
