import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type TaxIdRow, taxIds } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

/** The caller's Tax ID `id`, current or replaced, or a 404 (other accounts and environments do not exist). */
export async function findTaxId(db: Database, caller: Caller, id: string): Promise<TaxIdRow> {
  const rows = await counted(
    db,
    db
      .select()
      .from(taxIds)
      .where(and(eq(taxIds.id, id), ownedBy(taxIds, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("tax ID", id);
  return row;
}
