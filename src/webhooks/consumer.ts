import { eq } from "drizzle-orm";
import { createDb } from "../db/client";
import { deliveryAttempts, eventDestinations, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import { post, recordAttempt } from "./attempt";
import { MAX_ATTEMPTS, retryDelayAfter } from "./config";
import type { DeliveryMessage } from "./message";
import { serializeThinEvent } from "./payload";

async function deliverOne(message: Message<DeliveryMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const { event_id, destination_id } = message.body;
  const [eventRows, destinationRows] = await db.batch([
    db.select().from(events).where(eq(events.id, event_id)).limit(1),
    db.select().from(eventDestinations).where(eq(eventDestinations.id, destination_id)).limit(1),
  ]);
  const event = eventRows[0];
  const destination = destinationRows[0];
  // A deleted destination, or one disabled since: deliveries stop. The scope check repeats
  // fan-out's, so a stray message can never carry one account's event to another.
  const sameScope = event?.accountId === destination?.accountId && event?.live === destination?.live;
  if (!event || !destination || !sameScope || destination.status !== "enabled") {
    message.ack();
    return;
  }
  const outcome = await post(destination, JSON.stringify(serializeThinEvent(event)), env);
  const disabledNow = await recordAttempt(
    db,
    { eventId: event.id, destinationId: destination.id, number: message.attempts },
    outcome,
  );
  if (outcome.ok || disabledNow) {
    message.ack();
  } else {
    // After the last attempt this retry hands the message to the dead-letter queue.
    message.retry({ delaySeconds: retryDelayAfter(env, message.attempts) });
  }
}

/** The `webhook-deliveries` consumer: a batch is delivered concurrently, acked per message. */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await deliverOne(message, env);
      } catch (err) {
        console.error(JSON.stringify({ event: "delivery_error", id: message.id, error: String(err) }));
        message.retry({ delaySeconds: retryDelayAfter(env, message.attempts) });
      }
    }),
  );
}

/** The dead-letter consumer: a delivery that used its five attempts is recorded as exhausted. */
export async function recordExhausted(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  if (batch.messages.length === 0) return;
  const db = createDb(env.DB);
  const now = nowIso();
  // One statement for the batch: it is recorded whole or retried whole, never half.
  await db.insert(deliveryAttempts).values(
    batch.messages.map((message) => ({
      id: newId("deliveryAttempt"),
      eventId: message.body.event_id,
      destinationId: message.body.destination_id,
      // The dead-letter queue counts its own attempts from 1; this was the main queue's last.
      attempt: MAX_ATTEMPTS,
      outcome: "exhausted" as const,
      statusCode: null,
      durationMs: null,
      error: "all attempts failed; no more retries",
      createdAt: now,
    })),
  );
  for (const message of batch.messages) message.ack();
}
