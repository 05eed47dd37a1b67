import { and, asc, isNull, lte } from "drizzle-orm";
import { createDb } from "../db/client";
import { events } from "../db/schema";
import { nowMs } from "../lib/clock";
import { fanOutById } from "./fan-out";

/** Events younger than this are left to the request that wrote them. */
const SWEEP_GRACE_MS = 60_000;
const SWEEP_LIMIT = 200;

/** The cron sweep: fans out events whose request never got to it. Returns how many it took. */
export async function sweepUndispatched(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const stale = await db
    .select({ id: events.id })
    .from(events)
    .where(and(isNull(events.dispatchedAt), lte(events.createdAt, cutoff)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(SWEEP_LIMIT);
  await fanOutById(
    env,
    stale.map((e) => e.id),
  );
  return stale.length;
}
