import { and, asc, eq, lt, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { writeWithEvents } from "../events/write";
import { consumerWriter } from "../events/writer";
import { nowIso, nowMs } from "../lib/clock";
import { connectionSlots } from "../lib/connections";
import { accountToday } from "../lib/dates";
import { logError } from "../lib/log";
import { SERVED_COLUMNS } from "./find";
import { OWED } from "./owed";
import { serializeInvoice } from "./serialize";

/** Invoices a chunk takes, earliest due date first. */
const CHUNK = 50;
/**
 * Chunks a run takes at most, per shard: each invoice is two statements of a batch, and a
 * cron invocation shares its D1 query budget with the other chores. A backlog (the first run
 * after the lifecycle migration) drains at 100 invoices a minute per shard.
 */
const CHUNKS_PER_RUN = 2;

/**
 * Issued, still owed, with a due date, and not announced yet: written as the partial index
 * `invoices_overdue_job_idx` states it (literal values), so SQLite reads only such invoices.
 */
const UNANNOUNCED = sql`${OWED} AND ${invoices.overdueAt} IS NULL AND ${invoices.dueDate} IS NOT NULL`;

/**
 * The cron's overdue chore: records `invoice.overdue` once per invoice, the first time it is
 * seen overdue (issued, unpaid or partially paid, its due date before its account's today),
 * and sets `overdue_at` in the same batch. Both are guarded by `UNANNOUNCED` inside the
 * transaction, so an invoice is never announced twice (two runs, two shards' crons on one
 * database) and an invoice paid meanwhile is not announced at all.
 *
 * The account's today is decided as `isOverdue` (serialize.ts) decides it, from the invoice
 * itself: Europe/Madrid when it has a VERI*FACTU record (every issued invoice of an `es`
 * account has one), UTC otherwise. So the event never disagrees with the object's `overdue`,
 * and the job reads one table through one index, without a join to the accounts.
 *
 * Returns how many invoices it announced.
 */
export async function recordOverdueInvoices(env: Env, ctx: ExecutionContext): Promise<number> {
  const db = createDb(env.DB);
  const ms = nowMs();
  const madrid = accountToday(true, ms);
  const utc = accountToday(false, ms);
  const slots = connectionSlots();
  let announced = 0;
  for (let chunk = 0; chunk < CHUNKS_PER_RUN; chunk++) {
    const rows = await db
      .select(SERVED_COLUMNS)
      .from(invoices)
      .where(
        and(
          sql`${UNANNOUNCED}`,
          // Madrid's date is never behind UTC's: the index range ends at it, and the few
          // non-`es` invoices due on UTC's today (late evening in UTC) are skipped here.
          lt(invoices.dueDate, madrid),
          sql`${invoices.dueDate} < CASE WHEN ${invoices.verifactuStatus} IS NULL THEN ${utc} ELSE ${madrid} END`,
        ),
      )
      .orderBy(asc(invoices.dueDate))
      .limit(CHUNK);
    const groups = Map.groupBy(rows, (row) => `${row.accountId}:${row.live}`);
    let failed = false;
    for (const group of groups.values()) {
      try {
        announced += await announce(env, ctx, slots, db, group);
      } catch (err) {
        // The group stays unannounced for the next run; the other accounts go on.
        failed = true;
        logError("overdue_error", err, { account_id: group[0]?.accountId });
      }
    }
    if (failed || rows.length < CHUNK) break;
  }
  return announced;
}

/** One account and environment's overdue invoices: one batch, each update with its event. */
async function announce(
  env: Env,
  ctx: ExecutionContext,
  slots: ReturnType<typeof connectionSlots>,
  db: ReturnType<typeof createDb>,
  rows: ServedInvoiceRow[],
): Promise<number> {
  const [first] = rows;
  if (!first) return 0;
  const now = nowIso();
  const w = consumerWriter(db, env, ctx, first, slots);
  const { events } = await writeWithEvents(
    w,
    Object.fromEntries(
      rows.map((row) => [
        row.id,
        db
          .update(invoices)
          .set({ overdueAt: now })
          .where(and(eq(invoices.id, row.id), UNANNOUNCED)),
      ]),
    ),
    ...rows.map((row) => ({
      type: "invoice.overdue" as const,
      object: serializeInvoice({ ...row, overdueAt: now }),
      whileExists: [invoices, invoices.id, UNANNOUNCED] as [
        typeof invoices,
        typeof invoices.id,
        typeof UNANNOUNCED,
      ],
    })),
  );
  return events.filter((e) => e.recorded).length;
}
