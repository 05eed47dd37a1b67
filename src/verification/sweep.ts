import { and, asc, inArray, isNull, lte, sql } from "drizzle-orm";
import { batchByIds, createDb } from "../db/client";
import { taxIds } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { queueVerifications } from "./dispatch";

/**
 * Unmarked checks younger than this are left to the request that sent them: the mark is the
 * consumer's, so a check waiting in a queue backlog is unmarked too, and sending it early
 * only makes a copy that the consumer then drops.
 */
const SWEEP_GRACE_MS = 5 * 60_000;
/** Verifications a run takes, oldest first, whatever the backlog. */
const SWEEP_LIMIT = 200;

/**
 * The cron sweep: queues the pending verifications whose first check no consumer has taken
 * (the request's send failed, or its isolate died first) once they are five minutes old. Each
 * goes on its own (`queueVerifications`): one that fails stays for the next run and the
 * others go on; the first copy a consumer takes marks it. A check it sent is stamped
 * `verification_swept_at` and never sent by it again: Queues delivers every message it
 * accepted, so more copies would only be dropped by the consumer. Returns how many it sent.
 */
export async function sweepUnqueuedVerifications(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const t = taxIds;
  const stale = await db
    .select({ id: t.id })
    .from(t)
    // The literal 'pending' (not a bound value) lets SQLite use the partial index.
    .where(
      and(
        sql`${t.verificationStatus} = 'pending'`,
        isNull(t.verificationQueuedAt),
        isNull(t.verificationSweptAt),
        lte(t.createdAt, cutoff),
      ),
    )
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(SWEEP_LIMIT);
  const sent = await queueVerifications(
    env,
    stale.map((row) => row.id),
  );
  const now = nowIso();
  await batchByIds(db, sent, (group) =>
    db.update(t).set({ verificationSweptAt: now }).where(inArray(t.id, group)),
  );
  return sent.length;
}
