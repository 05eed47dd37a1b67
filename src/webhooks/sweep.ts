import { and, asc, inArray, isNull, lte } from "drizzle-orm";
import { batchByIds, createDb } from "../db/client";
import { events } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { fanOut, listenersByScope } from "./fan-out";

/**
 * Undispatched events younger than this are left to the write that recorded them: its first
 * attempts may still be in flight (a receiver has 10 s), and a swept event is marked by the
 * delivery consumer that takes it, so one whose messages wait in a queue backlog is unmarked
 * too; queueing either early would send its receivers a copy.
 */
const SWEEP_GRACE_MS = 5 * 60_000;
/** Events a run takes: at most 200 × 16 messages a minute, whatever the backlog. */
const SWEEP_LIMIT = 200;
/** Events queued before their `swept_at` is stamped: a run cut short re-queues at most these. */
const STAMP_EVERY = 10;

/**
 * The cron sweep: fans out, through the queue, events whose first attempts never finished
 * (the write's isolate died, D1 or the queue failed) once they are five minutes old, oldest
 * first. Each event is dispatched on its own (`fanOut`): one that fails stays for the next
 * run and the others go on. An event it queued is stamped `swept_at` and never queued by it
 * again: Queues delivers every message it accepted, so a second copy would only reach the
 * receivers twice when the consumer is merely late. Returns how many it took.
 */
export async function sweepUndispatched(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const stale = await db
    .select({ id: events.id, accountId: events.accountId, live: events.live, type: events.type })
    .from(events)
    .where(and(isNull(events.dispatchedAt), isNull(events.sweptAt), lte(events.createdAt, cutoff)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(SWEEP_LIMIT);
  // Each account's destinations are read once per run, whatever the groups.
  const listenersOf = listenersByScope(db);
  for (let i = 0; i < stale.length; i += STAMP_EVERY) {
    const queued = await fanOut(env, stale.slice(i, i + STAMP_EVERY), listenersOf);
    const now = nowIso();
    await batchByIds(db, queued, (group) =>
      db.update(events).set({ sweptAt: now }).where(inArray(events.id, group)),
    );
  }
  return stale.length;
}
