import { and, eq, isNull } from "drizzle-orm";
import { createDb } from "../db/client";
import { type EventDestinationRow, type EventRow, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import { logError } from "../lib/log";
import { attemptWrites, type Outcome, post } from "./attempt";
import { retryDelayAfter } from "./config";
import { subscribed } from "./fan-out";
import type { DeliveryMessage } from "./message";
import { serializeThinEvent } from "./payload";

/**
 * The write's own fan-out: the first attempt of each (event, subscribed destination) is made
 * here, after the response (the writer's `waitUntil`), not through the queue, whose hop
 * (send, the broker's batching, the consumer's read) was most of an event's time to its
 * receiver. The queue keeps what needs it: a failed attempt queues the next one (attempt 2,
 * after its delay) before anything is recorded, and the event is marked dispatched in the
 * same batch that records its attempts. So a fan-out cut short (the isolate gone, D1 or the
 * queue failing) leaves the event unmarked, and the cron sweep queues it five minutes on:
 * a receiver may get an attempt twice, never none. `listeners` are the enabled destinations
 * of the events' account and environment, read in the write's own batch.
 */
export async function deliverFirstAttempts(
  env: Env,
  pending: EventRow[],
  listeners: EventDestinationRow[],
): Promise<void> {
  const db = createDb(env.DB);
  await Promise.all(
    pending.map(async (event) => {
      try {
        const targets = listeners.filter((d) => subscribed(d.enabledEvents, event.type));
        const body = JSON.stringify(serializeThinEvent(event));
        const outcomes = await Promise.all(targets.map((d) => post(d, body, env)));
        const retries = targets.flatMap((d, i): MessageSendRequest<DeliveryMessage>[] =>
          outcomes[i]?.ok
            ? []
            : [
                {
                  body: { event_id: event.id, destination_id: d.id, attempt: 2 },
                  delaySeconds: retryDelayAfter(env, 1),
                },
              ],
        );
        if (retries.length > 0) await env.WEBHOOKS.sendBatch(retries);
        const records = targets.flatMap((d, i) =>
          attemptWrites(db, { eventId: event.id, destinationId: d.id, number: 1 }, outcomes[i] as Outcome, {
            last: false,
          }),
        );
        const mark = db
          .update(events)
          .set({ dispatchedAt: nowIso() })
          .where(and(eq(events.id, event.id), isNull(events.dispatchedAt)));
        await db.batch([mark, ...records]);
      } catch (err) {
        logError("dispatch_error", err, { event_id: event.id });
      }
    }),
  );
}
