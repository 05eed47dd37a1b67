import { eventDestinations } from "../../db/schema";
import { listOf } from "../../lib/api-schemas";
import { listBody, paginate } from "../../lib/pagination";
import { route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { destinationObject, listDestinationsQuery } from "./schemas";
import { serializeDestination } from "./serialize";

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
