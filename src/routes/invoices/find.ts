import { and, eq } from "drizzle-orm";
import { counted, type Database } from "../../db/client";
import { type InvoiceRow, invoices } from "../../db/schema";
import type { Caller } from "../../env";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";

/** The caller's invoice `id`, or a 404 (other accounts and environments do not exist). */
export async function findInvoice(db: Database, caller: Caller, id: string): Promise<InvoiceRow> {
  const rows = await counted(
    db,
    db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), ownedBy(invoices, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("invoice", id);
  return row;
}
