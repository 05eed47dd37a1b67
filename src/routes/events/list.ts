import { and, eq } from "drizzle-orm";
import { events } from "../../db/schema";
import { serializeEvent } from "../../events/serialize";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { eventObject, listEventsQuery } from "../../events/schemas";

export const listEvents = route({
  method: "get",
  path: "/v1/events",
  tag: "Events",
  summary: "List events (optionally of one type, or about one object)",
  request: { query: listEventsQuery },
  responses: { 200: { description: "Events, newest first.", schema: listOf(eventObject) } },
  handler: async (c, { query }) => {
    const where = and(
      ownedBy(events, c.get("caller")),
      query.type === undefined ? undefined : eq(events.type, query.type),
      query.related_object === undefined ? undefined : eq(events.relatedObjectId, query.related_object),
    );
    const page = await paginate(c.get("db"), events, "event", where, query);
    return c.json(listBody("/v1/events", page, serializeEvent));
  },
});
