import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { counted } from "../../db/client";
import { type EventDestinationRow, eventDestinations } from "../../db/schema";
import type { AppEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { findDestination } from "./find";
import { serializeDestination } from "./serialize";

type Change = Partial<
  Pick<EventDestinationRow, "name" | "url" | "enabledEvents" | "status" | "disabledReason" | "failingSince">
>;

/** Applies `change` (or what it computes from the current row) and returns the destination with its secret. */
export async function changeDestination(
  c: Context<AppEnv>,
  id: string,
  changeOf: Change | ((current: EventDestinationRow) => Change),
) {
  const db = c.get("db");
  const caller = c.get("caller");
  const current = await findDestination(db, caller, id);
  const change = typeof changeOf === "function" ? changeOf(current) : changeOf;
  if (Object.keys(change).length === 0) return c.json(serializeDestination(current, { withSecret: true }));
  const next: EventDestinationRow = { ...current, ...change, updatedAt: nowIso() };
  const updated = await counted(
    db,
    db
      .update(eventDestinations)
      .set({ ...change, updatedAt: next.updatedAt })
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .returning({ id: eventDestinations.id }),
  );
  if (updated.length === 0) throw notFound("event destination", id);
  return c.json(serializeDestination(next, { withSecret: true }));
}
