import { pingDestination } from "../../event-destinations/ping";
import { eventObject } from "../../events/schemas";
import { serializeEvent } from "../../events/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** A signed `event_destination.ping` to this destination only, whatever its `enabled_events`. */
export const pingDestinationRoute = route({
  method: "post",
  path: "/v1/event-destinations/:id/ping",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Send a test event to an event destination",
    responses: { 200: { description: "The ping event, queued for delivery.", schema: eventObject } },
    // A disabled destination.
    errors: ["resource_conflict"],
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) =>
    c.json(serializeEvent(await pingDestination(writerOf(c), c.get("caller"), id))),
});
