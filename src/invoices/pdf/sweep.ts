import { and, asc, lte, sql } from "drizzle-orm";
import { createDb } from "../../db/client";
import { invoices } from "../../db/schema";
import { nowMs } from "../../lib/clock";
import { requestPdf } from "./dispatch";

/** Invoices younger than this are left to the issuance that queued them. */
const SWEEP_GRACE_MS = 60_000;
/** PDFs a run asks for, oldest first, whatever the backlog (renders cost CPU in the renderer). */
const SWEEP_LIMIT = 100;

/**
 * The cron sweep: asks again for the PDF of each invoice a minute old or more that has none
 * stored (its message was lost or its retries ran out; invoices issued before PDFs existed).
 * Returns how many it asked for.
 */
export async function sweepMissingPdfs(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    // A literal IS NULL, as the partial index's, so SQLite uses it.
    .where(and(sql`${invoices.pdfGeneratedAt} IS NULL`, lte(invoices.createdAt, cutoff)))
    .orderBy(asc(invoices.createdAt))
    .limit(SWEEP_LIMIT);
  await Promise.all(rows.map((row) => requestPdf(env, row.id)));
  return rows.length;
}
