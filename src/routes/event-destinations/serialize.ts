import type { EventDestinationRow } from "../../db/schema";

/** The destination object; the signing secret only where the seed allows it (not in lists). */
export function serializeDestination(row: EventDestinationRow, options: { withSecret: boolean }) {
  return {
    id: row.id,
    object: "event_destination" as const,
    live: row.live,
    name: row.name,
    url: row.url,
    enabled_events: row.enabledEvents,
    status: row.status,
    disabled_reason: row.disabledReason,
    ...(options.withSecret && { secret: row.secret }),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
