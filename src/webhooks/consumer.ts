import { and, inArray, isNull } from "drizzle-orm";
import type { DeliveryMessage } from "../contracts/delivery-message";
import { createDb, type Database } from "../db/client";
import { type EventDestinationRow, type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso } from "../lib/clock";
import { connectionSlots, type Slots } from "../lib/connections";
import { logError } from "../lib/log";
import { post, recordAttempt } from "./attempt";
import { MAX_ATTEMPTS, ownRetryDelay, retryDelayAfter } from "./config";
import { deadLetterWrites } from "./dead-letters";
import { serializeThinEvent } from "./payload";

/**
 * One receiver attempt. A failed attempt queues the next one as a new message (its number
 * in the body, after its delay) and acks this one; the fifth is recorded as the last. Any
 * throw is our own failure (D1, the queue, a bug), handled by the caller.
 */
async function deliverOne(
  message: Message<DeliveryMessage>,
  env: Env,
  db: Database,
  rows: BatchRows,
  slots: Slots,
): Promise<void> {
  const { event_id, destination_id } = message.body;
  // A message queued before the attempt travelled in its body: the queue's count stands in.
  const attempt = message.body.attempt ?? message.attempts;
  const event = rows.events.get(event_id);
  const destination = rows.destinations.get(destination_id);
  // A deleted destination, or one disabled since: deliveries stop. The scope check repeats
  // fan-out's, so a stray message can never carry one account's event to another.
  const sameScope = event?.accountId === destination?.accountId && event?.live === destination?.live;
  if (!event || !destination || !sameScope || destination.status !== "enabled") {
    message.ack();
    return;
  }
  const outcome = await post(destination, JSON.stringify(serializeThinEvent(event)), env, slots);
  const last = attempt >= MAX_ATTEMPTS;
  const disabledNow = await recordAttempt(
    db,
    { eventId: event.id, destinationId: destination.id, number: attempt },
    outcome,
    { last },
  );
  if (!outcome.ok && !disabledNow && !last) {
    await env.WEBHOOKS.send(
      { event_id, destination_id, attempt: attempt + 1 },
      { delaySeconds: retryDelayAfter(env, attempt) },
    );
  }
  message.ack();
}

/** Ids for a log line, whatever the body holds (`logError` redacts what is not id-shaped). */
function logIds(message: Message<unknown>) {
  const body = message.body as Partial<DeliveryMessage> | null;
  return { message_id: message.id, event_id: body?.event_id, destination_id: body?.destination_id };
}

type BatchRows = { events: Map<string, EventRow>; destinations: Map<string, EventDestinationRow> };

/**
 * The events and destinations a batch names, in one round trip before any POST: read per
 * message, the batch's D1 reads queued behind each other and delayed its later deliveries.
 * The same round trip marks dispatched the events of fan-out messages (the outbox mark a
 * fan-out through the queue leaves to the consumer: all its messages are on the queue, since
 * one of them is here; see `DeliveryMessage.fan_out`).
 * At most 50 of each (`max_batch_size`), far under D1's 100 bound parameters per query.
 */
async function batchRows(db: Database, messages: readonly Message<DeliveryMessage>[]): Promise<BatchRows> {
  const eventIds = [...new Set(messages.map((m) => m.body.event_id))];
  const fannedOut = [...new Set(messages.filter((m) => m.body.fan_out === true).map((m) => m.body.event_id))];
  const destinationIds = [...new Set(messages.map((m) => m.body.destination_id))];
  const [, eventRows, destinationRows] = await db.batch([
    db
      .update(events)
      .set({ dispatchedAt: nowIso() })
      .where(and(inArray(events.id, fannedOut), isNull(events.dispatchedAt))),
    db.select().from(events).where(inArray(events.id, eventIds)),
    db.select().from(eventDestinations).where(inArray(eventDestinations.id, destinationIds)),
  ]);
  return {
    events: new Map(eventRows.map((e) => [e.id, e])),
    destinations: new Map(destinationRows.map((d) => [d.id, d])),
  };
}

/**
 * The `webhook-deliveries` consumer: a batch is delivered concurrently, acked per message.
 * Our own failure retries the same message, so the same receiver attempt, with our own
 * backoff; past the queue's `max_retries` it goes to the dead-letter queue.
 */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const valid = batch.messages.filter((m) => isDelivery(m.body));
  let rows: BatchRows;
  try {
    rows = await batchRows(db, valid);
  } catch (err) {
    // D1 is unavailable: every message waits for our own backoff.
    for (const message of batch.messages) {
      logError("delivery_error", err, logIds(message));
      message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
    }
    return;
  }
  const slots = connectionSlots();
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isDelivery(message.body)) {
        // Retried like our own failure, so it ends in the dead-letter queue, which records it.
        logError("delivery_malformed", null, logIds(message));
        message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
        return;
      }
      try {
        await deliverOne(message, env, db, rows, slots);
      } catch (err) {
        logError("delivery_error", err, logIds(message));
        message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
      }
    }),
  );
}

function isDelivery(body: unknown): body is DeliveryMessage {
  const b = body as Partial<DeliveryMessage> | null;
  return typeof b?.event_id === "string" && typeof b.destination_id === "string";
}

/**
 * The dead-letter consumer: a delivery our own processing kept failing is recorded as
 * exhausted and kept as a dead letter for a re-drive. One that cannot be recorded is retried
 * (the DLQ's `max_retries` is the most Queues allows), never acked unrecorded.
 */
export async function recordDeadLetters(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isDelivery(message.body)) {
        // Nothing to deliver or re-drive: said loudly, then dropped.
        logError("dead_letter_malformed", null, { message_id: message.id });
        message.ack();
        return;
      }
      const { event_id, destination_id, attempt } = message.body;
      const delivery = { eventId: event_id, destinationId: destination_id, attempt: attempt ?? MAX_ATTEMPTS };
      // Without `attempt`, the previous consumer dead-lettered it after the receiver's 5 failures.
      const reason = attempt === undefined ? "exhausted" : "dead_lettered";
      try {
        await db.batch(deadLetterWrites(db, delivery, reason));
        message.ack();
      } catch (err) {
        logError("dead_letter_error", err, logIds(message));
        message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
      }
    }),
  );
}
