import { and, eq } from "drizzle-orm";
import { counted, type Database } from "../../db/client";
import { type EventDestinationRow, eventDestinations } from "../../db/schema";
import type { Caller } from "../../env";
import { ApiError, notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { allowLoopbackDestinations } from "../../webhooks/config";
import { checkDestinationUrl } from "../../webhooks/url";

/** The caller's destination `id`, or a 404. */
export async function findDestination(
  db: Database,
  caller: Caller,
  id: string,
): Promise<EventDestinationRow> {
  const rows = await counted(
    db,
    db
      .select()
      .from(eventDestinations)
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("event destination", id);
  return row;
}

/** The destination URL rule (decisions.md), or a 400 with `param: "url"`. */
export function destinationUrl(env: Env, raw: string): string {
  const check = checkDestinationUrl(raw, { allowLoopbackHttp: allowLoopbackDestinations(env) });
  if (!check.ok) throw new ApiError("parameter_invalid", check.message, { param: "url" });
  return check.url;
}
