/**
 * OpenAPI's `webhooks`: what a delivery POSTs to an event destination, one entry per event
 * type (src/constants EVENT_TYPES), each the thin event (src/webhooks/payload.ts) of its type,
 * signed in `Service-Signature` (src/webhooks/signature.ts).
 */
import { EVENT_TYPES } from "../../src/constants";
import { SIGNATURE_HEADER } from "../../src/webhooks/signature";
import { componentRef } from "./schemas";
import { SIGNATURE_DESCRIPTION, WEBHOOK_DESCRIPTION } from "./text";

export function webhooks() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook:${type}`,
          summary: type,
          description: WEBHOOK_DESCRIPTION,
          tags: ["Webhooks"],
          security: [],
          parameters: [
            {
              name: SIGNATURE_HEADER,
              in: "header",
              required: true,
              description: SIGNATURE_DESCRIPTION,
              schema: { type: "string", pattern: "^t=[0-9]+(,v1=[0-9a-f]{64})+$" },
            },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  allOf: [
                    componentRef("ThinEvent"),
                    { type: "object", properties: { type: { const: type } } },
                  ],
                },
              },
            },
          },
          responses: {
            "2XX": { description: "Acknowledged. Any other answer, or none within 10 seconds, is retried." },
          },
        },
      },
    ]),
  );
}
