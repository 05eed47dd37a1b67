import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type EventDestinationRow, eventDestinations } from "../db/schema";
import { ownedBy } from "../db/scope";
import { ApiError, notFound } from "../http/errors";
import { allowLoopbackDestinations } from "../webhooks/config";
import { checkDestinationUrl } from "../webhooks/url";

/** The caller's destination `id` (none when another account or environment holds it), for a batch. */
export function selectDestination(db: Database, caller: Caller, id: string) {
  return db
    .select()
    .from(eventDestinations)
    .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
    .limit(1);
}

/** The caller's destination `id`, or a 404. */
export async function findDestination(
  db: Database,
  caller: Caller,
  id: string,
): Promise<EventDestinationRow> {
  const [row] = await counted(db, selectDestination(db, caller, id));
  return row ?? destinationMissing(id);
}

/** `404 resource_missing` for destination `id`, thrown (usable as an expression: `row ?? destinationMissing(id)`). */
export function destinationMissing(id: string): never {
  throw notFound("event destination", id);
}

/** Deliveries asked for by hand go to enabled destinations only (the consumer drops the rest). */
export function assertEnabled(destination: EventDestinationRow): void {
  if (destination.status !== "enabled") {
    throw new ApiError(
      "resource_conflict",
      `Event destination ${destination.id} is disabled: enable it first (POST /v1/event-destinations/${destination.id}/enable).`,
    );
  }
}

/**
 * The destination URL rule (decisions.md), or a 400 with `param: "url"`. Live destinations
 * take only the default port of their scheme; Test ones any port (a tunnel, a local proxy).
 */
export function destinationUrl(env: Env, raw: string, live: boolean): string {
  const check = checkDestinationUrl(raw, {
    allowLoopbackHttp: allowLoopbackDestinations(env),
    defaultPortOnly: live,
  });
  if (!check.ok) throw new ApiError("parameter_invalid", check.message, { param: "url" });
  return check.url;
}
