import { and, eq, inArray, isNull } from "drizzle-orm";
import { createDb, type Database } from "../db/client";
import { type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import { logError } from "../lib/log";
import type { DeliveryMessage } from "./message";

const SEND_BATCH = 100; // Queues' sendBatch limit
/** Events dispatched side by side; one UPDATE marks the group (ids far under D1's 100 parameters). */
const GROUP = 10;

/** What the fan-out needs of an event. */
export type Dispatchable = Pick<EventRow, "id" | "accountId" | "live" | "type">;
export type Listener = { id: string; enabledEvents: string[] };

/** Whether `enabled_events` takes `type` (`*`: every type). */
export function subscribed(enabledEvents: string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/** The enabled destinations of each account and environment, read once per fan-out. */
function listenersByScope(db: Database) {
  const cache = new Map<string, Promise<Listener[]>>();
  return (event: Dispatchable): Promise<Listener[]> => {
    const scope = `${event.accountId}:${event.live}`;
    let listeners = cache.get(scope);
    if (!listeners) {
      const d = eventDestinations;
      listeners = db
        .select({ id: d.id, enabledEvents: d.enabledEvents })
        .from(d)
        .where(and(eq(d.accountId, event.accountId), eq(d.live, event.live), eq(d.status, "enabled")))
        .execute();
      cache.set(scope, listeners);
    }
    return listeners;
  };
}

/** Queues one event's messages; at most 16 destinations listen, so one sendBatch holds them all. */
async function send(env: Env, event: Dispatchable, listeners: Listener[]): Promise<void> {
  const messages: { body: DeliveryMessage }[] = listeners
    .filter((d) => subscribed(d.enabledEvents, event.type))
    .map((d) => ({ body: { event_id: event.id, destination_id: d.id, attempt: 1 } }));
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    await env.WEBHOOKS.sendBatch(messages.slice(i, i + SEND_BATCH));
  }
}

/**
 * The outbox step: one queue message per (event, enabled destination of its account and
 * environment subscribed to its type), then the event is marked dispatched.
 *
 * Each event goes on its own: all its messages in one `sendBatch` (the 16-destination limit
 * keeps them under the batch's 100), so an event is either wholly on the queue or not at
 * all, and its `dispatched_at` records every (event, destination) pair at once. A failure
 * (its destinations' read, the queue) is logged by id and leaves only that event for the
 * cron sweep. Groups of 10 events are sent side by side and marked by one UPDATE: a fan-out
 * cut short re-sends at most its unfinished group, never what was marked. Failing to mark
 * throws (D1 is down: sending more would only be sent again). `listeners`, when the caller
 * read them (writeWithEvents does, in its own batch), are those of the events' one account and
 * environment. Returns the ids dispatched.
 */
export async function fanOut(env: Env, pending: Dispatchable[], listeners?: Listener[]): Promise<string[]> {
  const db = createDb(env.DB);
  // The write that recorded the events read their scope's listeners in its own batch.
  const listenersOf = listeners ? async () => listeners : listenersByScope(db);
  const dispatched: string[] = [];
  for (let i = 0; i < pending.length; i += GROUP) {
    const group = pending.slice(i, i + GROUP);
    const sent = await Promise.all(
      group.map(async (event) => {
        try {
          await send(env, event, await listenersOf(event));
          return event.id;
        } catch (err) {
          logError("dispatch_error", err, { event_id: event.id });
          return null;
        }
      }),
    );
    const ids = sent.filter((id): id is string => id !== null);
    if (ids.length === 0) continue;
    await db
      .update(events)
      .set({ dispatchedAt: nowIso() })
      .where(and(inArray(events.id, ids), isNull(events.dispatchedAt)));
    dispatched.push(...ids);
  }
  return dispatched;
}
