import { and, eq } from "drizzle-orm";
import { deliveryAttempts, sentAttempt } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { idParams, route } from "../../http/route";
import { findDestination } from "../../event-destinations/find";
import { attemptObject, listAttemptsQuery } from "../../event-destinations/schemas";
import { serializeAttempt } from "../../event-destinations/serialize";

/** The delivery log: every request sent to the destination, newest first, optionally of one event. */
export const listAttempts = route({
  method: "get",
  path: "/v1/event-destinations/:id/attempts",
  tag: "Event destinations",
  summary: "List an event destination's delivery attempts",
  request: { params: idParams, query: listAttemptsQuery },
  responses: { 200: { description: "Delivery attempts, newest first.", schema: listOf(attemptObject) } },
  handler: async (c, { params: { id }, query }) => {
    const db = c.get("db");
    const { live } = await findDestination(db, c.get("caller"), id);
    const a = deliveryAttempts;
    // Through the log's partial indexes: a page reads its own rows, whatever else the table holds.
    const byEvent = query.event === undefined ? undefined : eq(a.eventId, query.event);
    const where = and(eq(a.destinationId, id), byEvent, sentAttempt);
    const page = await paginate(db, a, "deliveryAttempt", where, query);
    return c.json(
      listBody(`/v1/event-destinations/${id}/attempts`, page, (row) => serializeAttempt(row, live)),
    );
  },
});
