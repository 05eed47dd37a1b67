import { changeDestination } from "../../event-destinations/change";
import { destinationObject } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** Without the secret. Deliveries stop, including pending retries. */
export const disableDestinationRoute = route({
  method: "post",
  path: "/v1/event-destinations/:id/disable",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Disable an event destination",
    responses: { 200: { description: "The destination.", schema: destinationObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) =>
    c.json(
      serializeDestination(
        await changeDestination(writerOf(c), c.get("caller"), id, {
          status: "disabled",
          disabledReason: "requested",
        }),
      ),
    ),
});
