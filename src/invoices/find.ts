import { and, eq, getTableColumns } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { ownedBy } from "../db/scope";
import { ApiError, notFound } from "../http/errors";

/** The columns of a `ServedInvoiceRow`: every column (the records themselves are in `verifactu_records`). */
export const SERVED_COLUMNS = getTableColumns(invoices);

/** The caller's invoice `id`, or a 404 (other accounts and environments do not exist). */
export async function findInvoice(db: Database, caller: Caller, id: string): Promise<ServedInvoiceRow> {
  const rows = await counted(
    db,
    db
      .select(SERVED_COLUMNS)
      .from(invoices)
      .where(and(eq(invoices.id, id), ownedBy(invoices, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("invoice", id);
  return row;
}

/** 409 `invoice_not_draft`: only a draft can be edited, deleted or finalized. */
/** The caller's draft `id`: 404 when there is no such invoice, 409 `invoice_not_draft` when it is issued or void. */
export async function findDraft(db: Database, caller: Caller, id: string): Promise<ServedInvoiceRow> {
  const row = await findInvoice(db, caller, id);
  if (row.status !== "draft") {
    throw new ApiError(
      "invoice_not_draft",
      `Invoice ${row.id} is ${row.status}, not a draft: only drafts can be edited, deleted or finalized.`,
    );
  }
  return row;
}
