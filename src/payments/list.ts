import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type PaymentRow, payments } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import type { listPaymentsQuery } from "./schemas";

/**
 * One page of the caller's payments, newest first, optionally of one invoice: the
 * `(account, live, id)` or `(account, live, invoice, id)` index bounds it by the page.
 */
export function listPayments(
  db: Database,
  caller: Caller,
  query: z.output<typeof listPaymentsQuery>,
): Promise<Page<PaymentRow>> {
  const where = and(
    ownedBy(payments, caller),
    query.invoice === undefined ? undefined : eq(payments.invoiceId, query.invoice),
  );
  return paginate(db, payments, "payment", where, query);
}
