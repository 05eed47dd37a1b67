import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { counted } from "../db/client";
import { type EventDestinationRow, eventDestinations } from "../db/schema";
import type { AppEnv } from "../http/context";
import { nowIso } from "../lib/clock";
import { notFound } from "../http/errors";
import { ownedBy } from "../db/scope";
import { findDestination } from "./find";
import { serializeDestination } from "./serialize";

type Change = Partial<
  Pick<EventDestinationRow, "name" | "url" | "enabledEvents" | "status" | "disabledReason" | "failingSince">
>;

/**
 * Applies `change` (or what it computes from the current row) and returns the destination
 * with its secret, as the UPDATE left it: a secret rotated or a field changed concurrently
 * since the read shows as it is stored.
 */
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
  const [updated] = await counted(
    db,
    db
      .update(eventDestinations)
      .set({ ...change, updatedAt: nowIso() })
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .returning(),
  );
  if (!updated) throw notFound("event destination", id);
  return c.json(serializeDestination(updated, { withSecret: true }));
}
