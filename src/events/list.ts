import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type EventRow, events } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import type { listEventsQuery } from "./schemas";

/** One page of the caller's events, newest first, of one type or about one object. */
export function listEvents(
  db: Database,
  caller: Caller,
  query: z.output<typeof listEventsQuery>,
): Promise<Page<EventRow>> {
  const where = and(
    ownedBy(events, caller),
    query.type === undefined ? undefined : eq(events.type, query.type),
    query.related_object === undefined ? undefined : eq(events.relatedObjectId, query.related_object),
  );
  return paginate(db, events, "event", where, query);
}
