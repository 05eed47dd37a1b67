import { eventDestinations } from "../../db/schema";
import { listOf } from "../../http/schemas";
import { listBody, paginate } from "../../http/pagination";
import { route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { destinationObject, listDestinationsQuery } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";

/** Without secrets. */
export const listDestinations = route({
  method: "get",
  path: "/v1/event-destinations",
  tag: "Event destinations",
  summary: "List event destinations",
  request: { query: listDestinationsQuery },
  responses: { 200: { description: "Destinations, newest first.", schema: listOf(destinationObject) } },
  handler: async (c, { query }) => {
    const where = ownedBy(eventDestinations, c.get("caller"));
    const page = await paginate(c.get("db"), eventDestinations, "eventDestination", where, query);
    return c.json(
      listBody("/v1/event-destinations", page, (row) => serializeDestination(row, { withSecret: false })),
    );
  },
});
