import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { createDb } from "../db/client";
import { type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";

export type DeliveryMessage = { event_id: string; destination_id: string };

/** Events younger than this are left to the request that wrote them. */
const SWEEP_GRACE_MS = 60_000;
const SWEEP_LIMIT = 200;
const SEND_BATCH = 100; // Queues' sendBatch limit
/** D1 allows 100 bound parameters per statement; the final update binds one more than this. */
const ID_CHUNK = 90;

function subscribed(enabledEvents: string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/**
 * The outbox step: one queue message per (event, enabled destination of the same account
 * and environment that subscribes to its type), then the events are marked dispatched. If
 * the isolate dies in between, the cron sweep sends them again: deliveries are at least
 * once, and receivers dedupe by event id.
 */
async function dispatchEvents(env: Env, eventIds: string[]): Promise<void> {
  for (let i = 0; i < eventIds.length; i += ID_CHUNK) {
    await dispatchChunk(env, eventIds.slice(i, i + ID_CHUNK));
  }
}

async function dispatchChunk(env: Env, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  const db = createDb(env.DB, { rowsRead: 0, rowsWritten: 0 });
  const pending = await db
    .select()
    .from(events)
    .where(and(inArray(events.id, eventIds), isNull(events.dispatchedAt)));
  await dispatchRows(env, pending);
}

/** Queues the deliveries of events already in hand, then marks them dispatched. */
async function dispatchRows(env: Env, pending: EventRow[]): Promise<void> {
  if (pending.length === 0) return;
  const db = createDb(env.DB, { rowsRead: 0, rowsWritten: 0 });
  const messages: { body: DeliveryMessage }[] = [];
  const destinationsByScope = new Map<string, (typeof eventDestinations.$inferSelect)[]>();
  for (const event of pending) {
    const scope = `${event.accountId}:${event.live}`;
    let destinations = destinationsByScope.get(scope);
    if (!destinations) {
      destinations = await db
        .select()
        .from(eventDestinations)
        .where(
          and(
            eq(eventDestinations.accountId, event.accountId),
            eq(eventDestinations.live, event.live),
            eq(eventDestinations.status, "enabled"),
          ),
        );
      destinationsByScope.set(scope, destinations);
    }
    for (const d of destinations) {
      if (subscribed(d.enabledEvents, event.type)) {
        messages.push({ body: { event_id: event.id, destination_id: d.id } });
      }
    }
  }
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    await env.WEBHOOKS.sendBatch(messages.slice(i, i + SEND_BATCH));
  }
  await db
    .update(events)
    .set({ dispatchedAt: nowIso() })
    .where(
      inArray(
        events.id,
        pending.map((e) => e.id),
      ),
    );
}

/** The cron sweep: dispatches events whose request never got to it. */
export async function sweepUndispatched(env: Env): Promise<number> {
  const db = createDb(env.DB, { rowsRead: 0, rowsWritten: 0 });
  const cutoff = new Date(nowMs() - SWEEP_GRACE_MS).toISOString();
  const stale = await db
    .select({ id: events.id })
    .from(events)
    .where(and(isNull(events.dispatchedAt), lte(events.createdAt, cutoff)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(SWEEP_LIMIT);
  await dispatchEvents(
    env,
    stale.map((e) => e.id),
  );
  return stale.length;
}

/**
 * After a request's write committed: dispatch its event (the row in hand, not read back)
 * without delaying the response, unless the insert found no destination and wrote it
 * already dispatched (`written`: what the event insert returned). If this never runs to the
 * end, the cron sweep picks the event up.
 */
export function dispatchAfterResponse(
  ctx: { waitUntil(promise: Promise<unknown>): void },
  env: Env,
  event: EventRow,
  written: { dispatchedAt: string | null }[],
): void {
  if (written[0]?.dispatchedAt !== null) return;
  ctx.waitUntil(
    dispatchRows(env, [event]).catch((err) =>
      console.error(JSON.stringify({ event: "dispatch_error", error: String(err) })),
    ),
  );
}
