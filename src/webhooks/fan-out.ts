import { and, eq, inArray, isNull } from "drizzle-orm";
import { createDb } from "../db/client";
import { type EventDestinationRow, type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import type { DeliveryMessage } from "./message";

const SEND_BATCH = 100; // Queues' sendBatch limit
/** D1 allows 100 bound parameters per statement; the final update binds one more than this. */
const ID_CHUNK = 90;

function subscribed(enabledEvents: string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/**
 * The outbox step for events already in hand: one queue message per (event, enabled
 * destination of the same account and environment that subscribes to its type), then the
 * events are marked dispatched. If the isolate dies in between, the cron sweep sends them
 * again: deliveries are at least once, and receivers dedupe by event id.
 */
export async function fanOut(env: Env, pending: EventRow[]): Promise<void> {
  if (pending.length === 0) return;
  const db = createDb(env.DB);
  const messages: { body: DeliveryMessage }[] = [];
  const destinationsByScope = new Map<string, EventDestinationRow[]>();
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

/** Fans out the events of `eventIds` that are still undispatched (read back in chunks). */
export async function fanOutById(env: Env, eventIds: string[]): Promise<void> {
  const db = createDb(env.DB);
  for (let i = 0; i < eventIds.length; i += ID_CHUNK) {
    const chunk = eventIds.slice(i, i + ID_CHUNK);
    const pending = await db
      .select()
      .from(events)
      .where(and(inArray(events.id, chunk), isNull(events.dispatchedAt)));
    await fanOut(env, pending);
  }
}
