import type { EventDestinationRow } from "../../db/schema";
import type { Destination } from "./schemas";

/** The destination object; the signing secret only where the seed allows it (not in lists). */
export function serializeDestination(
  row: EventDestinationRow,
  options: { withSecret: boolean },
): Destination {
  return {
    id: row.id,
    object: "event_destination",
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
