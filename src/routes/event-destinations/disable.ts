import { idParams, route } from "../../http/route";
import { changeDestination } from "../../event-destinations/change";
import { destinationObject } from "../../event-destinations/schemas";

/** Deliveries stop, including pending retries. */
export const disableDestination = route({
  method: "post",
  path: "/v1/event-destinations/:id/disable",
  tag: "Event destinations",
  summary: "Disable an event destination",
  request: { params: idParams },
  responses: { 200: { description: "The destination.", schema: destinationObject } },
  handler: (c, { params: { id } }) =>
    changeDestination(c, id, { status: "disabled", disabledReason: "requested" }),
});
