import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { type EventDestinationRow, eventDestinations } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { notFound } from "../http/errors";
import { fencedWrite } from "../http/idempotency";
import { nowIso } from "../lib/clock";
import { findDestination } from "./find";

type Change = Partial<
  Pick<
    EventDestinationRow,
    "name" | "url" | "enabledEvents" | "status" | "disabledReason" | "failingSince" | "circuitUntil"
  >
>;

/**
 * Applies `change` (or what it computes from the current row) and returns the destination
 * as the UPDATE left it: a secret rotated or a field changed concurrently since the read
 * shows as it is stored. The UPDATE carries the request's idempotency mark (enable, disable).
 */
export async function changeDestination(
  w: Writer,
  caller: Caller,
  id: string,
  changeOf: Change | ((current: EventDestinationRow) => Change),
): Promise<EventDestinationRow> {
  const { db } = w;
  const current = await findDestination(db, caller, id);
  const change = typeof changeOf === "function" ? changeOf(current) : changeOf;
  if (Object.keys(change).length === 0) return current;
  const { changed } = await fencedWrite(w, {
    changed: db
      .update(eventDestinations)
      .set({ ...change, updatedAt: nowIso() })
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .returning(),
  });
  const [updated] = changed;
  if (!updated) throw notFound("event destination", id);
  return updated;
}
