import { and, eq } from "drizzle-orm";
import { counted } from "../../db/client";
import { eventDestinations } from "../../db/schema";
import { notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";

export const deleteDestination = route({
  method: "delete",
  path: "/v1/event-destinations/:id",
  tag: "Event destinations",
  summary: "Delete an event destination",
  request: { params: idParams },
  responses: { 204: { description: "Deleted." } },
  handler: async (c, { params: { id } }) => {
    const db = c.get("db");
    const deleted = await counted(
      db,
      db
        .delete(eventDestinations)
        .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, c.get("caller"))))
        .returning({ id: eventDestinations.id }),
    );
    if (deleted.length === 0) throw notFound("event destination", id);
    return c.body(null, 204);
  },
});
