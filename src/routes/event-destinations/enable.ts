import { idParams, route } from "../../http/route";
import { changeDestination } from "../../event-destinations/change";
import { destinationObject } from "../../event-destinations/schemas";

/**
 * Deliveries resume for new events. The failing streak restarts only when it was disabled:
 * enabling an enabled destination cannot postpone its 24-hour disable.
 */
export const enableDestination = route({
  method: "post",
  path: "/v1/event-destinations/:id/enable",
  tag: "Event destinations",
  summary: "Enable an event destination",
  request: { params: idParams },
  responses: { 200: { description: "The destination.", schema: destinationObject } },
  handler: (c, { params: { id } }) =>
    changeDestination(c, id, (current) =>
      current.status === "enabled" ? {} : { status: "enabled", disabledReason: null, failingSince: null },
    ),
});
