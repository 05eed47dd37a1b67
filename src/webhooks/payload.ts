import { RELATED_OBJECT_PATHS, type RelatedObjectType } from "../constants";
import type { EventRow } from "../db/schema";

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
      // The account is a singleton resource: its path names it.
      url: row.relatedObjectType === "account" ? path : `${path}/${row.relatedObjectId}`,
    },
  };
}
