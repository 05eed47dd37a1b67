import { and, eq } from "drizzle-orm";
import { events } from "../../db/schema";
import { serializeEvent } from "../../events/serialize";
import { ApiError, notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { queueDelivery, resendable } from "../../webhooks/manual";
import { eventObject } from "../../events/schemas";
import { assertEnabled, destinationMissing, selectDestination } from "../../event-destinations/find";
import { resendBody } from "../../event-destinations/schemas";

/** One more delivery of a past event of the caller's environment to this destination only. */
export const resendEvent = route({
  method: "post",
  path: "/v1/event-destinations/:id/resend",
  tag: "Event destinations",
  summary: "Deliver a past event to an event destination again",
  request: { params: idParams, json: resendBody },
  responses: { 200: { description: "The event, queued for delivery.", schema: eventObject } },
  // A disabled destination.
  errors: ["resource_conflict"],
  handler: async (c, { params: { id }, json: body }) => {
    const db = c.get("db");
    const caller = c.get("caller");
    const [[destination], [event]] = await db.batch([
      selectDestination(db, caller, id),
      db
        .select()
        .from(events)
        .where(and(eq(events.id, body.event), ownedBy(events, caller)))
        .limit(1),
    ]);
    if (!destination) return destinationMissing(id);
    if (!event) throw notFound("event", body.event, "event");
    if (!resendable(destination, event)) {
      throw new ApiError(
        "parameter_invalid",
        `Event ${event.id} is a ${event.type} event, which event destination ${id} does not receive.`,
        { param: "event" },
      );
    }
    assertEnabled(destination);
    await queueDelivery(c.env, event.id, destination.id);
    return c.json(serializeEvent(event));
  },
});
