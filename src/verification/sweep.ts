import { and, asc, isNull, lte, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { taxIds } from "../db/schema";
import { nowMs } from "../lib/clock";
import { queueVerifications } from "./dispatch";

/** Tax IDs younger than this are left to the request that wrote them. */
const SWEEP_GRACE_MS = 60_000;
/** Verifications a run takes, oldest first, whatever the backlog. */
const SWEEP_LIMIT = 200;

/**
 * The cron sweep: queues the pending verifications whose request never got them on the
 * queue (its isolate died, the send failed) once they are a minute old. Each goes on its
 * own (`queueVerifications`): one that fails stays for the next run and the others go on.
 * Returns how many it took.
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
      and(sql`${t.verificationStatus} = 'pending'`, isNull(t.verificationQueuedAt), lte(t.createdAt, cutoff)),
    )
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(SWEEP_LIMIT);
  await queueVerifications(
    env,
    stale.map((row) => row.id),
  );
  return stale.length;
}
