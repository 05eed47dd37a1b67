import { changeDestination } from "../../event-destinations/change";
import { destinationUrl } from "../../event-destinations/find";
import { destinationObject, updateDestinationBody } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** `name`, `url`, `enabled_events`; answered without the secret. */
export const updateDestinationRoute = route({
  method: "patch",
  path: "/v1/event-destinations/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Update an event destination",
    responses: { 200: { description: "The updated destination.", schema: destinationObject } },
  }),
  request: { params: idParams, json: updateDestinationBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(
      serializeDestination(
        await changeDestination(writerOf(c), c.get("caller"), id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.url !== undefined && { url: destinationUrl(c.env, body.url, c.get("caller").live) }),
          ...(body.enabled_events !== undefined && { enabledEvents: body.enabled_events }),
        }),
      ),
    ),
});
