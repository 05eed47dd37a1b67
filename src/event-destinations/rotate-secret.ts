import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { EventDestinationRow } from "../db/schema";
import { eventDestinations } from "../db/schema";
import { ownedBy } from "../db/scope";
import { destinationMissing } from "../event-destinations/find";
import type { Writer } from "../events/write";
import { fencedWrite } from "../http/idempotency";
import { nowIso } from "../lib/clock";
import { DEFAULT_OVERLAP_SECONDS, rotation } from "../webhooks/rotation";
import type { RotateSecretBody } from "./schemas";

/** A new signing secret; the previous one keeps signing (a second `v1`) for `overlap_seconds`. */
export async function rotateSecret(
  w: Writer,
  caller: Caller,
  id: string,
  body: RotateSecretBody,
): Promise<EventDestinationRow> {
  const { db } = w;
  const d = eventDestinations;
  const { rotated } = await fencedWrite(w, {
    rotated: db
      .update(d)
      .set({ ...rotation(body.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS), updatedAt: nowIso() })
      .where(and(eq(d.id, id), ownedBy(d, caller)))
      .returning(),
  });
  return rotated[0] ?? destinationMissing(id);
}
