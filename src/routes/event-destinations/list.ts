import { listDestinations } from "../../event-destinations/list";
import { destinationObject, listDestinationsQuery } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { listBody } from "../../http/pagination";
import { route } from "../../http/route";
import { listOf } from "../../http/schemas";

/** Without secrets. */
export const listDestinationsRoute = route({
  method: "get",
  path: "/v1/event-destinations",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "List event destinations",
    responses: { 200: { description: "Destinations, newest first.", schema: listOf(destinationObject) } },
  }),
  request: { query: listDestinationsQuery },
  handler: async (c, { query }) => {
    const page = await listDestinations(c.get("db"), c.get("caller"), query);
    return c.json(listBody("/v1/event-destinations", page, (row) => serializeDestination(row)));
  },
});
