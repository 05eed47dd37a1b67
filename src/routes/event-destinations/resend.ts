import { resendEvent } from "../../event-destinations/resend";
import { resendBody } from "../../event-destinations/schemas";
import { eventObject } from "../../events/schemas";
import { serializeEvent } from "../../events/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** One more delivery of a past event of the caller's environment to this destination only. */
export const resendEventRoute = route({
  method: "post",
  path: "/v1/event-destinations/:id/resend",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Deliver a past event to an event destination again",
    responses: { 200: { description: "The event, queued for delivery.", schema: eventObject } },
    // A disabled destination.
    errors: ["resource_conflict"],
  }),
  request: { params: idParams, json: resendBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(serializeEvent(await resendEvent(writerOf(c), c.get("caller"), id, body))),
});
