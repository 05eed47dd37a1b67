import { and, eq } from "drizzle-orm";
import * as z from "zod";
import { events } from "../../db/schema";
import { serializeEvent } from "../../events/serialize";
import { EVENT_TYPES } from "../../events/types";
import { notFound } from "../../lib/errors";
import { listBody, listParams, paginate } from "../../lib/pagination";
import { newRouter } from "../../lib/router";
import { ownedBy } from "../../lib/scope";
import { validate } from "../../lib/validation";

const listEventsQuery = listParams.extend({ type: z.enum(EVENT_TYPES).optional() }).strict();

/** `GET /v1/events` (newest first, optional `type`) and `GET /v1/events/:id`. */
export const eventsRouter = newRouter()
  .get("/", validate("query", listEventsQuery), async (c) => {
    const query = c.req.valid("query");
    const where = and(
      ownedBy(events, c.get("caller")),
      query.type === undefined ? undefined : eq(events.type, query.type),
    );
    const page = await paginate(c.get("db"), events, "event", where, query);
    return c.json(listBody("/v1/events", page, serializeEvent));
  })
  .get("/:id", async (c) => {
    const db = c.get("db");
    const id = c.req.param("id");
    const [rows] = await db.batch([
      db
        .select()
        .from(events)
        .where(and(eq(events.id, id), ownedBy(events, c.get("caller"))))
        .limit(1),
    ]);
    const row = rows[0];
    if (!row) throw notFound("event", id);
    return c.json(serializeEvent(row));
  });
