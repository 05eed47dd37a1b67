import { changeDestination } from "../../event-destinations/change";
import { destinationUrl } from "../../event-destinations/find";
import { destinationObject, updateDestinationBody } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";
import { idParams, route } from "../../http/route";

/** `name`, `url`, `enabled_events`. */
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
        await changeDestination(c.get("db"), c.get("caller"), id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.url !== undefined && { url: destinationUrl(c.env, body.url) }),
          ...(body.enabled_events !== undefined && { enabledEvents: body.enabled_events }),
        }),
        { withSecret: true },
      ),
    ),
});
