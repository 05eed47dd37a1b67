import { listAttempts } from "../../event-destinations/list";
import { attemptObject, listAttemptsQuery } from "../../event-destinations/schemas";
import { serializeAttempt } from "../../event-destinations/serialize";
import { listBody } from "../../http/pagination";
import { idParams, route } from "../../http/route";
import { listOf } from "../../http/schemas";

/** The delivery log: every request sent to the destination, newest first, optionally of one event. */
export const listAttemptsRoute = route({
  method: "get",
  path: "/v1/event-destinations/:id/attempts",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "List an event destination's delivery attempts",
    responses: { 200: { description: "Delivery attempts, newest first.", schema: listOf(attemptObject) } },
  }),
  request: { params: idParams, query: listAttemptsQuery },
  handler: async (c, { params: { id }, query }) => {
    const { live, page } = await listAttempts(c.get("db"), c.get("caller"), id, query);
    return c.json(
      listBody(`/v1/event-destinations/${id}/attempts`, page, (row) => serializeAttempt(row, live)),
    );
  },
});
