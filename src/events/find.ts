import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type EventRow, events } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

/** The caller's event `id`, or 404. */
export async function findEvent(db: Database, caller: Caller, id: string): Promise<EventRow> {
  const [row] = await counted(
    db,
    db
      .select()
      .from(events)
      .where(and(eq(events.id, id), ownedBy(events, caller)))
      .limit(1),
  );
  if (!row) throw notFound("event", id);
  return row;
}
