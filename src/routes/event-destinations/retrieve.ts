import { findDestination } from "../../event-destinations/find";
import { destinationObject } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { idParams, route } from "../../http/route";

export const retrieveDestinationRoute = route({
  method: "get",
  path: "/v1/event-destinations/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Retrieve an event destination",
    responses: { 200: { description: "The destination, with its secret.", schema: destinationObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params }) => {
    const row = await findDestination(c.get("db"), c.get("caller"), params.id);
    return c.json(serializeDestination(row, { withSecret: true }));
  },
});
