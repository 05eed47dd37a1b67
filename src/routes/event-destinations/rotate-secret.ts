import { and, eq } from "drizzle-orm";
import { counted } from "../../db/client";
import { eventDestinations } from "../../db/schema";
import { nowIso } from "../../lib/clock";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { DEFAULT_OVERLAP_SECONDS, rotation } from "../../webhooks/rotation";
import { destinationMissing } from "../../event-destinations/find";
import { destinationObject, rotateSecretBody } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";

/** A new signing secret; the previous one keeps signing (a second `v1`) for `overlap_seconds`. */
export const rotateSecret = route({
  method: "post",
  path: "/v1/event-destinations/:id/rotate-secret",
  tag: "Event destinations",
  summary: "Rotate an event destination's signing secret",
  request: { params: idParams, json: rotateSecretBody },
  responses: { 200: { description: "The destination, with its new secret.", schema: destinationObject } },
  handler: async (c, { params: { id }, json: body }) => {
    const db = c.get("db");
    const d = eventDestinations;
    const [row] = await counted(
      db,
      db
        .update(d)
        .set({ ...rotation(body.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS), updatedAt: nowIso() })
        .where(and(eq(d.id, id), ownedBy(d, c.get("caller"))))
        .returning(),
    );
    return c.json(serializeDestination(row ?? destinationMissing(id), { withSecret: true }));
  },
});
