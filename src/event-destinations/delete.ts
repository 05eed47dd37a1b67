import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted } from "../db/client";
import { eventDestinations } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { notFound } from "../http/errors";

export async function deleteDestination(w: Writer, caller: Caller, id: string): Promise<void> {
  const { db } = w;
  const deleted = await counted(
    db,
    db
      .delete(eventDestinations)
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .returning({ id: eventDestinations.id }),
  );
  if (deleted.length === 0) throw notFound("event destination", id);
  return;
}
