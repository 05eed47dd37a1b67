import { and, eq } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import {
  type DeliveryAttemptRow,
  deliveryAttempts,
  type EventDestinationRow,
  eventDestinations,
  sentAttempt,
} from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Page, paginate } from "../http/pagination";
import { findDestination } from "./find";
import type { listAttemptsQuery, listDestinationsQuery } from "./schemas";

/** One page of the caller's destinations, newest first. */
export function listDestinations(
  db: Database,
  caller: Caller,
  query: z.output<typeof listDestinationsQuery>,
): Promise<Page<EventDestinationRow>> {
  return paginate(db, eventDestinations, "eventDestination", ownedBy(eventDestinations, caller), query);
}

/**
 * One page of destination `id`'s delivery log, newest first, optionally of one event, with the
 * destination's environment (which the attempts show).
 */
export async function listAttempts(
  db: Database,
  caller: Caller,
  id: string,
  query: z.output<typeof listAttemptsQuery>,
): Promise<{ live: boolean; page: Page<DeliveryAttemptRow> }> {
  const { live } = await findDestination(db, caller, id);
  const a = deliveryAttempts;
  // Through the log's partial indexes: a page reads its own rows, whatever else the table holds.
  const byEvent = query.event === undefined ? undefined : eq(a.eventId, query.event);
  const page = await paginate(
    db,
    a,
    "deliveryAttempt",
    and(eq(a.destinationId, id), byEvent, sentAttempt),
    query,
  );
  return { live, page };
}
