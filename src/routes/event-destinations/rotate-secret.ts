import { rotateSecret } from "../../event-destinations/rotate-secret";
import { destinationWithSecretObject, rotateSecretBody } from "../../event-destinations/schemas";
import { serializeDestinationWithSecret } from "../../event-destinations/serialize";
import { writerOf } from "../../events/writer";
import { idParams, route } from "../../http/route";

/** A new signing secret; the previous one keeps signing (a second `v1`) for `overlap_seconds`. */
export const rotateSecretRoute = route({
  method: "post",
  path: "/v1/event-destinations/:id/rotate-secret",
  ...(!globalThis.OMIT_API_DOCS && {
    tag: "Event destinations",
    summary: "Rotate an event destination's signing secret",
    responses: {
      200: { description: "The destination, with its new secret.", schema: destinationWithSecretObject },
    },
  }),
  request: { params: idParams, json: rotateSecretBody },
  handler: async (c, { params: { id }, json: body }) =>
    c.json(serializeDestinationWithSecret(await rotateSecret(writerOf(c), c.get("caller"), id, body))),
});
