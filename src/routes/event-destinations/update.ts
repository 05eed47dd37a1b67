import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { type EventDestinationRow, eventDestinations } from "../../db/schema";
import type { AppEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { destinationUrl, findDestination } from "./find";
import type { UpdateDestinationBody } from "./schemas";
import { serializeDestination } from "./serialize";

type Change = Partial<
  Pick<EventDestinationRow, "name" | "url" | "enabledEvents" | "status" | "disabledReason" | "failingSince">
>;

/** Applies `change` to the caller's destination and returns it with its secret. */
export async function changeDestination(c: Context<AppEnv>, id: string, change: Change) {
  const db = c.get("db");
  const caller = c.get("caller");
  const current = await findDestination(db, caller, id);
  const next: EventDestinationRow = { ...current, ...change, updatedAt: nowIso() };
  const [updated] = await db.batch([
    db
      .update(eventDestinations)
      .set({ ...change, updatedAt: next.updatedAt })
      .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, caller)))
      .returning({ id: eventDestinations.id }),
  ]);
  if (updated.length === 0) throw notFound("event destination", id);
  return c.json(serializeDestination(next, { withSecret: true }));
}

/** `PATCH /v1/event-destinations/:id`: `name`, `url`, `enabled_events`. */
export async function updateDestination(c: Context<AppEnv>, id: string, body: UpdateDestinationBody) {
  return changeDestination(c, id, {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.url !== undefined && { url: destinationUrl(c.env, body.url) }),
    ...(body.enabled_events !== undefined && { enabledEvents: body.enabled_events }),
  });
}

/** `POST /v1/event-destinations/:id/enable`: deliveries resume for new events. */
export function enableDestination(c: Context<AppEnv>, id: string) {
  return changeDestination(c, id, { status: "enabled", disabledReason: null, failingSince: null });
}

/** `POST /v1/event-destinations/:id/disable`: deliveries stop, including pending retries. */
export function disableDestination(c: Context<AppEnv>, id: string) {
  return changeDestination(c, id, { status: "disabled", disabledReason: "requested" });
}
