import { eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { EventRow } from "../db/schema";
import { events } from "../db/schema";
import { assertEnabled, findDestination } from "../event-destinations/find";
import { serializeDestination } from "../event-destinations/serialize";
import type { Writer } from "../events/write";
import { fencedWrite, releaseMark } from "../http/idempotency";
import { pingEvent, queueDelivery } from "../webhooks/manual";

/** A signed `event_destination.ping` to this destination only, whatever its `enabled_events`. */
export async function pingDestination(w: Writer, caller: Caller, id: string): Promise<EventRow> {
  const { db } = w;
  const destination = await findDestination(db, caller, id);
  assertEnabled(destination);
  const event = pingEvent(destination, serializeDestination(destination));
  await fencedWrite(w, { event: db.insert(events).values(event) });
  try {
    await queueDelivery(w.env, event.id, destination.id);
  } catch (err) {
    // The ping is born dispatched, so no sweep would ever send it: a ping that could not be
    // queued leaves no event behind (nor its idempotency mark), and the 500 means "nothing
    // happened, retry".
    await db.batch([db.delete(events).where(eq(events.id, event.id)), ...releaseMark(w.idempotencyMark)]);
    throw err;
  }
  return event;
}
