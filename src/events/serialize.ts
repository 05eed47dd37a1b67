import type { EventRow } from "../db/schema";
import { RELATED_OBJECT_PATHS, type RelatedObjectType } from "./types";

/** What a webhook delivery carries: the event without its `data` snapshot. */
export function serializeThinEvent(row: EventRow) {
  const path = RELATED_OBJECT_PATHS[row.relatedObjectType as RelatedObjectType];
  return {
    id: row.id,
    object: "event" as const,
    type: row.type,
    live: row.live,
    created_at: row.createdAt,
    related_object: {
      id: row.relatedObjectId,
      type: row.relatedObjectType,
      url: `${path}/${row.relatedObjectId}`,
    },
  };
}

/** The full event of the events API: `data.object` is the object when the event happened. */
export function serializeEvent(row: EventRow) {
  const { related_object, ...rest } = serializeThinEvent(row);
  return { ...rest, data: { object: JSON.parse(row.data) as unknown }, related_object };
}
