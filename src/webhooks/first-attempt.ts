import { and, eq, isNull } from "drizzle-orm";
import { createDb } from "../db/client";
import { type EventDestinationRow, type EventRow, events } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import type { Slots } from "../lib/connections";
import { logError } from "../lib/log";
import { attemptWrites, post } from "./attempt";
import { circuitOpen, gate } from "./circuit";
import { retryDelayAfter } from "./config";
import { fanOut, subscribed } from "./fan-out";
import { serializeThinEvent } from "./payload";

/**
 * First attempts a write makes itself, at most: an issuance's three events to all 16
 * destinations an environment can have fit, about as many as one delivery consumer batch
 * (50). A write with more (a VERI*FACTU verdict settling many invoices) queues them all
 * instead (`fanOut`), so that one invocation never opens hundreds of connections.
 */
export const MAX_FIRST_ATTEMPTS = 50;

/** After a write: its events' first attempts (`deliverFirstAttempts`), or the queue past the bound. */
export async function dispatchAfterWrite(
  env: Env,
  pending: EventRow[],
  listeners: EventDestinationRow[],
  slots: Slots,
): Promise<void> {
  // A destination whose circuit is open or that is failing, or any of a suspect account's,
  // is left to the queue's consumer, which holds or leases it (`circuit.ts`).
  const now = nowMs();
  const suspect = listeners.some((d) => circuitOpen(d, now));
  const deliveries = pending.map((event) => {
    const listening = listeners.filter((d) => subscribed(d.enabledEvents, event.type));
    const targets = listening.filter((d) => gate(d, suspect, now).kind === "free");
    return { event, targets, queued: listening.filter((d) => !targets.includes(d)) };
  });
  const count = deliveries.reduce((n, { targets }) => n + targets.length, 0);
  if (count <= MAX_FIRST_ATTEMPTS) return deliverFirstAttempts(env, deliveries, slots);
  await fanOut(env, pending, async () => listeners).catch((err) =>
    logError("dispatch_error", err, { event_count: pending.length }),
  );
}

/**
 * The write's own fan-out: the first attempt of each (event, subscribed destination) is made
 * here, after the response (the writer's `waitUntil`), not through the queue, whose hop
 * (send, the broker's batching, the consumer's read) was most of an event's time to its
 * receiver. The queue keeps what needs it: a failed attempt queues the next one (attempt 2,
 * after its delay) before anything is recorded, and the event is marked dispatched in the
 * same batch that records its attempts. So a fan-out cut short (the isolate gone, D1 or the
 * queue failing) leaves the event unmarked, and the cron sweep queues it five minutes on:
 * a receiver may get an attempt twice, never none. `targets` are each event's subscribed
 * enabled destinations, read in the write's own batch.
 */
async function deliverFirstAttempts(
  env: Env,
  deliveries: { event: EventRow; targets: EventDestinationRow[]; queued: EventDestinationRow[] }[],
  slots: Slots,
): Promise<void> {
  const db = createDb(env.DB);
  await Promise.all(
    deliveries.map(async ({ event, targets, queued }) => {
      try {
        const body = JSON.stringify(serializeThinEvent(event));
        const attempts = await Promise.all(
          targets.map(async (d) => ({ destination: d, outcome: await post(d, body, env, slots) })),
        );
        const message = (d: EventDestinationRow, attempt: number) => ({
          event_id: event.id,
          destination_id: d.id,
          attempt,
          fan_out: true as const,
        });
        // Queued even when this failure disables the destination: its consumer then drops it.
        const retries = [
          ...queued.map((d) => ({ body: message(d, 1) })),
          ...attempts
            .filter((a) => !a.outcome.ok)
            .map(({ destination }) => ({
              body: message(destination, 2),
              delaySeconds: retryDelayAfter(env, 1),
            })),
        ];
        if (retries.length > 0) await env.WEBHOOKS.sendBatch(retries);
        const records = attempts.flatMap(({ destination: d, outcome }) =>
          attemptWrites(
            db,
            { eventId: event.id, destinationId: d.id, number: 1, failingSince: d.failingSince },
            outcome,
            { last: false },
          ),
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
