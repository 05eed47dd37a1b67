import { changeDestination } from "../../event-destinations/change";
import { destinationObject } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/**
 * Without the secret. Deliveries resume for new events. The failing streak restarts only when it was disabled:
 * enabling an enabled destination cannot postpone its 24-hour disable.
 */
export const enableDestinationRoute = route({
  method: "post",
  path: "/v1/event-destinations/:id/enable",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Enable an event destination",
    responses: { 200: { description: "The destination.", schema: destinationObject } },
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) =>
    c.json(
      serializeDestination(
        await changeDestination(writerOf(c), c.get("caller"), id, (current) =>
          current.status === "enabled"
            ? {}
            : { status: "enabled", disabledReason: null, failingSince: null, circuitUntil: null },
        ),
      ),
    ),
});
