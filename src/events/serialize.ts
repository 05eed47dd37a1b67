import type { EventRow } from "../db/schema";
import { serializeThinEvent } from "../webhooks/payload";

/** The full event of the events API: `data.object` is the object when the event happened. */
export function serializeEvent(row: EventRow) {
  const { related_object, ...rest } = serializeThinEvent(row);
  return { ...rest, data: { object: JSON.parse(row.data) as unknown }, related_object };
}
