import type { DeliveryAttemptRow, EventDestinationRow } from "../db/schema";
import type { DeliveryAttempt, Destination, DestinationWithSecret } from "./schemas";

/** The destination object, without its signing secret: updates, enable, disable, lists, events. */
export function serializeDestination(row: EventDestinationRow): Destination {
  return {
    id: row.id,
    object: "event_destination",
    live: row.live,
    name: row.name,
    url: row.url,
    enabled_events: row.enabledEvents,
    status: row.status,
    disabled_reason: row.disabledReason,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The destination with its signing secret: only create, rotate-secret and retrieve return it. */
export function serializeDestinationWithSecret(row: EventDestinationRow): DestinationWithSecret {
  return { ...serializeDestination(row), secret: row.secret };
}

/** A line of the delivery log; `live` is its destination's. Only sent attempts are listed. */
export function serializeAttempt(row: DeliveryAttemptRow, live: boolean): DeliveryAttempt {
  return {
    id: row.id,
    object: "delivery_attempt",
    live,
    event: row.eventId,
    attempt: row.attempt,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    outcome: row.outcome as DeliveryAttempt["outcome"],
    error: row.error,
    created_at: row.createdAt,
  };
}
