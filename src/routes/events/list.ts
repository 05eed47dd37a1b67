import { listEvents } from "../../events/list";
import { eventObject, listEventsQuery } from "../../events/schemas";
import { serializeEvent } from "../../events/serialize";
import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";

export const listEventsRoute = route({
  method: "get",
  path: "/v1/events",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Events",
    summary: "List events (optionally of one type, or about one object)",
    responses: { 200: { description: "Events, newest first.", schema: listOf(eventObject) } },
  }),
  request: { query: listEventsQuery },
  handler: async (c, { query }) =>
    c.json(listBody("/v1/events", await listEvents(c.get("db"), c.get("caller"), query), serializeEvent)),
});
