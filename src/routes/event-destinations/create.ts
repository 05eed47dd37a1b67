import type { Context } from "hono";
import { type EventDestinationRow, eventDestinations } from "../../db/schema";
import type { AppEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { generateSecret } from "../../webhooks/signature";
import { destinationUrl } from "./find";
import type { CreateDestinationBody } from "./schemas";
import { serializeDestination } from "./serialize";

/** `POST /v1/event-destinations`: 201 with the signing secret. The key's environment is the destination's. */
export async function createDestination(c: Context<AppEnv>, body: CreateDestinationBody) {
  const caller = c.get("caller");
  const db = c.get("db");
  const now = nowIso();
  const row: EventDestinationRow = {
    id: newId("eventDestination"),
    accountId: caller.accountId,
    live: caller.live,
    name: body.name,
    url: destinationUrl(c.env, body.url),
    enabledEvents: body.enabled_events,
    status: "enabled",
    disabledReason: null,
    secret: generateSecret(),
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.batch([db.insert(eventDestinations).values(row)]);
  return c.json(serializeDestination(row, { withSecret: true }), 201);
}
