import { PING_EVENT } from "../constants";
import type { EventDestinationRow, EventRow } from "../db/schema";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import { subscribed } from "./fan-out";

/**
 * Deliveries a caller asks for: a ping or a resend, one event to one destination. Each is a
 * new delivery (attempt 1, with its own five attempts and retries) through the queue and its
 * consumer (attempt 1 included, unlike a write's first attempts), with the same signature
 * and delivery log, and reaches no other destination.
 */
export async function queueDelivery(env: Env, eventId: string, destinationId: string): Promise<void> {
  await env.WEBHOOKS.send({ event_id: eventId, destination_id: destinationId, attempt: 1 });
}

/**
 * A ping: a real event (so `GET /v1/events/{id}` and a resend work on it) about the destination,
 * born dispatched so that neither the request's fan-out nor the sweep sends it anywhere else.
 * `snapshot` is the destination as the API shows it without its secret.
 */
export function pingEvent(destination: EventDestinationRow, snapshot: object): EventRow {
  const now = nowIso();
  return {
    id: newId("event"),
    accountId: destination.accountId,
    live: destination.live,
    type: PING_EVENT,
    data: JSON.stringify(snapshot),
    relatedObjectId: destination.id,
    relatedObjectType: "event_destination",
    createdAt: now,
    dispatchedAt: now,
    sweptAt: null,
  };
}

/** An event goes again to a destination that subscribes to its type; a ping only to the one it pinged. */
export function resendable(destination: EventDestinationRow, event: EventRow): boolean {
  return event.type === PING_EVENT
    ? event.relatedObjectId === destination.id
    : subscribed(destination.enabledEvents, event.type);
}
