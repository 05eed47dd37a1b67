import { deleteDestination } from "../../event-destinations/delete";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

export const deleteDestinationRoute = route({
  method: "delete",
  path: "/v1/event-destinations/:id",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Delete an event destination",
    responses: { 204: { description: "Deleted." } },
  }),
  request: { params: idParams },
  handler: async (c, { params: { id } }) => {
    await deleteDestination(writerOf(c), c.get("caller"), id);
    return c.body(null, 204);
  },
});
