import { findDestination } from "../../event-destinations/find";
import { destinationWithSecretObject } from "../../event-destinations/schemas";
import { serializeDestinationWithSecret } from "../../event-destinations/serialize";
import { idParams, route } from "../../http/route";

export const retrieveDestinationRoute = route({
  method: "get",
  path: "/v1/event-destinations/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Retrieve an event destination",
    responses: {
      200: { description: "The destination, with its secret.", schema: destinationWithSecretObject },
    },
  }),
  request: { params: idParams },
  handler: async (c, { params }) => {
    const row = await findDestination(c.get("db"), c.get("caller"), params.id);
    return c.json(serializeDestinationWithSecret(row));
  },
});
