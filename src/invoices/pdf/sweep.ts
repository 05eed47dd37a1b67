import { and, asc, inArray, lte, sql } from "drizzle-orm";
import { batchByIds, createDb } from "../../db/client";
import { invoices } from "../../db/schema";
import { nowIso, nowMs } from "../../lib/clock";
import { requestPdf } from "./dispatch";

/**
 * Invoices younger than this are left to the issuance that queued them: past its five
 * retries 30 s apart (wrangler.jobs.toml) and a backlog, so the sweep's one request does not
 * go while the first message is still being tried.
 */
const SWEEP_GRACE_MS = 10 * 60_000;
/** PDFs a run asks for, oldest first, whatever the backlog (renders cost CPU in the renderer). */
const SWEEP_LIMIT = 100;

/**
 * The cron sweep: asks again for the PDF of each invoice ten minutes old or more that has none
 * stored (its message was lost or its retries ran out; invoices issued before PDFs existed).
 * It asks once per invoice (`pdf_swept_at`): Queues delivers what it accepted, and an invoice
 * whose render keeps failing would otherwise be asked for every minute and, a hundred of
 * them, hold every newer one out of the sweep. Such an invoice's PDF is still rendered on
 * demand by `GET /v1/invoices/{id}/pdf`. Returns how many it asked for.
 */
export async function sweepMissingPdfs(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    // Literal IS NULLs, as the partial index's, so SQLite uses it.
    .where(
      and(
        sql`${invoices.pdfGeneratedAt} IS NULL AND ${invoices.pdfSweptAt} IS NULL AND ${invoices.status} <> 'draft'`,
        lte(invoices.createdAt, cutoff),
      ),
    )
    .orderBy(asc(invoices.createdAt))
    .limit(SWEEP_LIMIT);
  const sent = await Promise.all(rows.map(async ({ id }) => ((await requestPdf(env, id)) ? id : null)));
  const now = nowIso();
  await batchByIds(
    db,
    sent.filter((id): id is string => id !== null),
    (group) => db.update(invoices).set({ pdfSweptAt: now }).where(inArray(invoices.id, group)),
  );
  return rows.length;
}
