import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DeliveryMessage } from "../contracts/delivery-message";
import { createDb, type Database } from "../db/client";
import { type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import { logError } from "../lib/log";

const SEND_BATCH = 100; // Queues' sendBatch limit
/** Events dispatched side by side (the ids one UPDATE marks stay far under D1's 100 parameters). */
const GROUP = 10;

/** What the fan-out needs of an event. */
export type Dispatchable = Pick<EventRow, "id" | "accountId" | "live" | "type">;
export type Listener = { id: string; enabledEvents: string[] };

/** Whether `enabled_events` takes `type` (`*`: every type). */
export function subscribed(enabledEvents: string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/** The enabled destinations of each account and environment, read once per caller of this. */
export function listenersByScope(db: Database) {
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

/**
 * Queues one event's messages; at most 16 destinations listen, so one sendBatch holds them
 * all. Returns whether there was anything to send.
 */
async function send(env: Env, event: Dispatchable, listeners: Listener[]): Promise<boolean> {
  const messages: { body: DeliveryMessage }[] = listeners
    .filter((d) => subscribed(d.enabledEvents, event.type))
    .map((d) => ({ body: { event_id: event.id, destination_id: d.id, attempt: 1, fan_out: true } }));
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    await env.WEBHOOKS.sendBatch(messages.slice(i, i + SEND_BATCH));
  }
  return messages.length > 0;
}

/**
 * The outbox step through the queue (the sweep's, and a write's with more deliveries than it
 * attempts itself): one queue message per (event, enabled destination of its account and
 * environment subscribed to its type). No D1 write for an event that had messages: the
 * delivery consumer that takes the first of them marks it dispatched (`batchRows`), and the
 * cron sweep queues again an event still unmarked five minutes on. An event with nothing to
 * send (its destinations disabled or unsubscribed since) is marked here, so that the sweep
 * does not come back to it.
 *
 * Each event goes on its own: all its messages in one `sendBatch` (the 16-destination limit
 * keeps them under the batch's 100), so an event is either wholly on the queue or not at
 * all. A failure (its destinations' read, the queue, the mark of events with nothing to
 * send) is logged and leaves only those events for the next sweep. Groups of 10 events are
 * sent side by side. `listenersOf` gives an event's enabled destinations: those a write read
 * in its own batch, or a `listenersByScope` the sweep keeps across its calls.
 * Returns the ids queued or marked.
 */
export async function fanOut(
  env: Env,
  pending: Dispatchable[],
  listenersOf: (event: Dispatchable) => Promise<Listener[]>,
): Promise<string[]> {
  const db = createDb(env.DB);
  const done: string[] = [];
  for (let i = 0; i < pending.length; i += GROUP) {
    const group = pending.slice(i, i + GROUP);
    const outcomes = await Promise.all(
      group.map(async (event) => {
        try {
          return { id: event.id, sent: await send(env, event, await listenersOf(event)) };
        } catch (err) {
          logError("dispatch_error", err, { event_id: event.id });
          return null;
        }
      }),
    );
    const handled = outcomes.filter((o): o is { id: string; sent: boolean } => o !== null);
    done.push(...handled.filter((o) => o.sent).map((o) => o.id));
    const silent = handled.filter((o) => !o.sent).map((o) => o.id);
    if (silent.length === 0) continue;
    try {
      await db
        .update(events)
        .set({ dispatchedAt: nowIso() })
        .where(and(inArray(events.id, silent), isNull(events.dispatchedAt)));
      done.push(...silent);
    } catch (err) {
      // Left unmarked and not done: the next sweep finds them again (nothing to send, marked then).
      logError("dispatch_error", err, { event_count: silent.length });
    }
  }
  return done;
}
