import { counted } from "../../db/client";
import { type EventDestinationRow, eventDestinations } from "../../db/schema";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { route } from "../../lib/route";
import { generateSecret } from "../../webhooks/signature";
import { destinationUrl } from "./find";
import { createDestinationBody, destinationObject } from "./schemas";
import { serializeDestination } from "./serialize";

/** 201 with the signing secret. The key's environment is the destination's. */
export const createDestination = route({
  method: "post",
  path: "/v1/event-destinations",
  tag: "Event destinations",
  summary: "Create an event destination",
  request: { json: createDestinationBody },
  responses: { 201: { description: "The new destination, with its secret.", schema: destinationObject } },
  handler: async (c, { json: body }) => {
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
    await counted(db, db.insert(eventDestinations).values(row));
    return c.json(serializeDestination(row, { withSecret: true }), 201);
  },
});
