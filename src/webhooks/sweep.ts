import { inArray } from "drizzle-orm";
import { batchByIds, createDb } from "../db/client";
import { events } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { type Dispatchable, fanOut, listenersByScope } from "./fan-out";

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

/** Accounts one run takes; past it, the next runs take the rest (ordered by account id). */
const ACCOUNTS_PER_RUN = 100;
const UNSWEPT = "dispatched_at IS NULL AND swept_at IS NULL";

/**
 * The accounts with unswept events, one seek each in their partial index (a skip scan):
 * its cost follows the accounts, never one account's backlog.
 */
const ACCOUNTS_SQL = `WITH RECURSIVE a(id) AS (
  SELECT (SELECT account_id FROM events INDEXED BY events_unswept_account_idx WHERE ${UNSWEPT} ORDER BY account_id LIMIT 1)
  UNION ALL
  SELECT (SELECT account_id FROM events INDEXED BY events_unswept_account_idx
    WHERE ${UNSWEPT} AND account_id > a.id ORDER BY account_id LIMIT 1)
  FROM a WHERE a.id IS NOT NULL LIMIT ?
) SELECT id FROM a WHERE id IS NOT NULL`;
const OLDEST_SQL = `SELECT id, account_id AS accountId, live, type FROM events INDEXED BY events_unswept_account_idx
  WHERE account_id = ? AND ${UNSWEPT} AND created_at <= ? ORDER BY created_at, id LIMIT ?`;

/**
 * The stale events a run takes, accounts in turn: each account's oldest, an equal share of
 * the run's `SWEEP_LIMIT` (at least 1), interleaved so that the queue carries one account's
 * event, then the next account's. One account's backlog (a bulk import while D1 failed) thus
 * delays nobody else's.
 */
async function staleInTurn(env: Env, cutoff: string): Promise<Dispatchable[]> {
  const accounts = await env.DB.prepare(ACCOUNTS_SQL).bind(ACCOUNTS_PER_RUN).all<{ id: string }>();
  if (accounts.results.length === 0) return [];
  const share = Math.max(1, Math.floor(SWEEP_LIMIT / accounts.results.length));
  const oldest = await env.DB.batch<Omit<Dispatchable, "live"> & { live: number }>(
    accounts.results.map(({ id }) => env.DB.prepare(OLDEST_SQL).bind(id, cutoff, share)),
  );
  const queues = oldest.map((r) => r.results.map((e) => ({ ...e, live: e.live === 1 })));
  const inTurn: Dispatchable[] = [];
  for (let i = 0; i < share; i++) for (const q of queues) if (q[i]) inTurn.push(q[i] as Dispatchable);
  return inTurn.slice(0, SWEEP_LIMIT);
}

/**
 * The cron sweep: fans out, through the queue, events whose first attempts never finished
 * (the write's isolate died, D1 or the queue failed) once they are five minutes old, oldest
 * first within each account, accounts in turn (`staleInTurn`). Each event is dispatched on its
 * own (`fanOut`): one that fails stays for the next run and the others go on. An event it
 * queued is stamped `swept_at` and never queued by it again: Queues delivers every message it
 * accepted, so a second copy would only reach the receivers twice when the consumer is merely
 * late. Returns how many it took.
 */
export async function sweepUndispatched(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const stale = await staleInTurn(env, new Date(nowMs() - SWEEP_GRACE_MS).toISOString());
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
