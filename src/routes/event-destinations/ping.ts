import { eq } from "drizzle-orm";
import { counted } from "../../db/client";
import { events } from "../../db/schema";
import { serializeEvent } from "../../events/serialize";
import { idParams, route } from "../../http/route";
import { pingEvent, queueDelivery } from "../../webhooks/manual";
import { eventObject } from "../../events/schemas";
import { assertEnabled, findDestination } from "../../event-destinations/find";
import { serializeDestination } from "../../event-destinations/serialize";

/** A signed `event_destination.ping` to this destination only, whatever its `enabled_events`. */
export const pingDestination = route({
  method: "post",
  path: "/v1/event-destinations/:id/ping",
  tag: "Event destinations",
  summary: "Send a test event to an event destination",
  request: { params: idParams },
  responses: { 200: { description: "The ping event, queued for delivery.", schema: eventObject } },
  // A disabled destination.
  errors: ["resource_conflict"],
  handler: async (c, { params: { id } }) => {
    const db = c.get("db");
    const destination = await findDestination(db, c.get("caller"), id);
    assertEnabled(destination);
    const event = pingEvent(destination, serializeDestination(destination, { withSecret: false }));
    await counted(db, db.insert(events).values(event));
    try {
      await queueDelivery(c.env, event.id, destination.id);
    } catch (err) {
      // The ping is born dispatched, so no sweep would ever send it: a ping that could not be
      // queued leaves no event behind, and the 500 means "nothing happened, retry".
      await counted(db, db.delete(events).where(eq(events.id, event.id)));
      throw err;
    }
    return c.json(serializeEvent(event));
  },
});
