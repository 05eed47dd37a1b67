import { and, eq } from "drizzle-orm";
import { counted } from "../../db/client";
import { events } from "../../db/schema";
import { serializeEvent } from "../../events/serialize";
import { notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { eventObject } from "../../events/schemas";

export const retrieveEvent = route({
  method: "get",
  path: "/v1/events/:id",
  tag: "Events",
  summary: "Retrieve an event",
  request: { params: idParams },
  responses: { 200: { description: "The event with its data snapshot.", schema: eventObject } },
  handler: async (c, { params: { id } }) => {
    const db = c.get("db");
    const rows = await counted(
      db,
      db
        .select()
        .from(events)
        .where(and(eq(events.id, id), ownedBy(events, c.get("caller"))))
        .limit(1),
    );
    const row = rows[0];
    if (!row) throw notFound("event", id);
    return c.json(serializeEvent(row));
  },
});
