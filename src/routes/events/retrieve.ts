import { findEvent } from "../../events/find";
import { eventObject } from "../../events/schemas";
import { serializeEvent } from "../../events/serialize";
import { idParams, route } from "../../http/route";

export const retrieveEventRoute = route({
  method: "get",
  path: "/v1/events/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Events",
    summary: "Retrieve an event",
    responses: { 200: { description: "The event with its data snapshot.", schema: eventObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) =>
    c.json(serializeEvent(await findEvent(c.get("db"), c.get("caller"), id))),
});
