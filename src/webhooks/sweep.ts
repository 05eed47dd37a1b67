import { and, asc, isNull, lte } from "drizzle-orm";
import { createDb } from "../db/client";
import { events } from "../db/schema";
import { nowMs } from "../lib/clock";
import { fanOut } from "./fan-out";

/** Events younger than this are left to the request that wrote them. */
const SWEEP_GRACE_MS = 60_000;
/** Events a run takes: at most 200 × 16 messages a minute, whatever the backlog. */
const SWEEP_LIMIT = 200;

/**
 * The cron sweep: fans out events whose request never got to it, oldest first. Each event
 * is dispatched on its own (`fanOut`): one that fails stays for the next run and the others
 * go on. Returns how many it took.
 */
export async function sweepUndispatched(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const stale = await db
    .select({ id: events.id, accountId: events.accountId, live: events.live, type: events.type })
    .from(events)
    .where(and(isNull(events.dispatchedAt), lte(events.createdAt, cutoff)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(SWEEP_LIMIT);
  await fanOut(env, stale);
  return stale.length;
}
