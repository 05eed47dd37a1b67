import { createDestination } from "../../event-destinations/create";
import { createDestinationBody, destinationWithSecretObject } from "../../event-destinations/schemas";
import { writerOf } from "../../events/writer";
import { route } from "../../http/route";

/** 201 with the signing secret. The key's environment is the destination's. */
export const createDestinationRoute = route({
  method: "post",
  path: "/v1/event-destinations",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Create an event destination",
    responses: {
      201: { description: "The new destination, with its secret.", schema: destinationWithSecretObject },
    },
    errors: ["destination_limit_reached"],
  }),
  request: { json: createDestinationBody },
  handler: async (c, { json: body }) =>
    c.json(await createDestination(writerOf(c), c.get("caller"), body), 201),
});
