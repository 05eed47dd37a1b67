import { and, eq } from "drizzle-orm";
import { eventDestinations } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { listBody, paginate } from "../../lib/pagination";
import { newRouter } from "../../lib/router";
import { ownedBy } from "../../lib/scope";
import { validate } from "../../lib/validation";
import { createDestination } from "./create";
import { findDestination } from "./find";
import { createDestinationBody, listDestinationsQuery, updateDestinationBody } from "./schemas";
import { serializeDestination } from "./serialize";
import { disableDestination, enableDestination, updateDestination } from "./update";

export const eventDestinationsRouter = newRouter()
  .post("/", validate("json", createDestinationBody), (c) => createDestination(c, c.req.valid("json")))
  .get("/", validate("query", listDestinationsQuery), async (c) => {
    const where = ownedBy(eventDestinations, c.get("caller"));
    const page = await paginate(
      c.get("db"),
      eventDestinations,
      "eventDestination",
      where,
      c.req.valid("query"),
    );
    return c.json(
      listBody("/v1/event-destinations", page, (row) => serializeDestination(row, { withSecret: false })),
    );
  })
  .get("/:id", async (c) => {
    const row = await findDestination(c.get("db"), c.get("caller"), c.req.param("id"));
    return c.json(serializeDestination(row, { withSecret: true }));
  })
  .patch("/:id", validate("json", updateDestinationBody), (c) =>
    updateDestination(c, c.req.param("id"), c.req.valid("json")),
  )
  .delete("/:id", async (c) => {
    const db = c.get("db");
    const id = c.req.param("id");
    const [deleted] = await db.batch([
      db
        .delete(eventDestinations)
        .where(and(eq(eventDestinations.id, id), ownedBy(eventDestinations, c.get("caller"))))
        .returning({ id: eventDestinations.id }),
    ]);
    if (deleted.length === 0) throw notFound("event destination", id);
    return c.body(null, 204);
  })
  .post("/:id/enable", (c) => enableDestination(c, c.req.param("id")))
  .post("/:id/disable", (c) => disableDestination(c, c.req.param("id")));
