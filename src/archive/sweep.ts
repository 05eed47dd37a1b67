import { and, asc, lte, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { invoices } from "../db/schema";
import { nowMs } from "../lib/clock";
import { logError } from "../lib/log";
import { archiveInvoice } from "./write";

/** Invoices younger than this are left to the PDF consumer, which archives them first. */
const SWEEP_GRACE_MS = 5 * 60_000;
/** Invoices a run archives, oldest first, whatever the backlog (each is a few R2 writes). */
export const ARCHIVE_SWEEP_LIMIT = 25;

/**
 * The cron sweep (every minute, per shard): archives the issued and void invoices whose PDF is
 * stored but whose archive is not complete (`archived_at` null: the consumer's attempt failed,
 * it was voided or gained a record since, or it was issued before the archive existed). A
 * failure is logged and tried again next run. Returns how many it archived.
 */
export async function sweepUnarchived(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    // Literal conditions, as the partial index's, so SQLite uses it.
    .where(
      and(
        sql`${invoices.archivedAt} IS NULL AND ${invoices.pdfGeneratedAt} IS NOT NULL AND ${invoices.status} <> 'draft'`,
        lte(invoices.createdAt, cutoff),
      ),
    )
    .orderBy(asc(invoices.createdAt))
    .limit(ARCHIVE_SWEEP_LIMIT);
  let archived = 0;
  for (const { id } of rows) {
    try {
      if (await archiveInvoice(env, id)) archived++;
    } catch (err) {
      logError("archive_error", err, { invoice_id: id });
    }
  }
  return archived;
}
