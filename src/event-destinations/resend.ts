import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { EventRow } from "../db/schema";
import { events } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { ApiError } from "../http/errors";
import { fencedWrite, releaseMark } from "../http/idempotency";
import { queueDelivery, resendable } from "../webhooks/manual";
import { assertEnabled, destinationMissing, selectDestination } from "./find";
import type { ResendBody } from "./schemas";

/** One more delivery of a past event of the caller's environment to this destination only. */
export async function resendEvent(
  w: Writer,
  caller: Caller,
  id: string,
  body: ResendBody,
): Promise<EventRow> {
  const { db } = w;
  const [[destination], [event]] = await db.batch([
    selectDestination(db, caller, id),
    db
      .select()
      .from(events)
      .where(and(eq(events.id, body.event), ownedBy(events, caller)))
      .limit(1),
  ]);
  if (!destination) return destinationMissing(id);
  // An id in a body that names nothing is a bad parameter, as everywhere else: 400 on it.
  if (!event) throw new ApiError("parameter_invalid", `No such event: '${body.event}'.`, { param: "event" });
  if (!resendable(destination, event)) {
    throw new ApiError(
      "parameter_invalid",
      `Event ${event.id} is a ${event.type} event, which event destination ${id} does not receive.`,
      { param: "event" },
    );
  }
  assertEnabled(destination);
  // The delivery is the write: the idempotency mark commits first, so a request whose key was
  // taken over queues nothing; one that cannot queue frees its key for the retry.
  await fencedWrite(w, {});
  try {
    await queueDelivery(w.env, event.id, destination.id);
  } catch (err) {
    const [release] = releaseMark(w.idempotencyMark);
    if (release) await db.batch([release]);
    throw err;
  }
  return event;
}
