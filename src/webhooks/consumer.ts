import { and, gt, inArray, isNull } from "drizzle-orm";
import type { DeliveryMessage } from "../contracts/delivery-message";
import { createDb, type Database } from "../db/client";
import { type EventDestinationRow, type EventRow, eventDestinations, events } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { fairSlots, type Slots } from "../lib/connections";
import { logError } from "../lib/log";
import { type Outcome, post, recordAttempt } from "./attempt";
import { circuitWindowMs, claimLease, delayUntil, gate } from "./circuit";
import { MAX_ATTEMPTS, ownRetryDelay, retryDelayAfter } from "./config";
import { deadLetterWrites } from "./dead-letters";
import { serializeThinEvent } from "./payload";

/**
 * How long a message waits for one of its invocation's connections: past it, it is held
 * (rescheduled `BUSY_DELAY_MS` on), so that a batch never waits behind receivers that hang
 * for longer than the first ones it sent. A message whose destination's lease is taken is
 * held as long: the attempt holding it ends within the receiver's 10 s.
 */
const SLOT_WAIT_MS = 2_000;
const BUSY_DELAY_MS = 5_000;
/** The fair slots are taken before `post`, which then sends at once. */
const direct: Slots = (send) => send();

/** What becomes of one message of the batch. */
type Step = { message: Message<DeliveryMessage>; delaySeconds?: number };

/**
 * One receiver attempt, once `slots` gives its account a connection (`fairSlots`): a message
 * that waits longer, or whose destination failed earlier in this batch, is rescheduled instead
 * (`held`), not attempted. A failed attempt queues the next one as a new message (its number
 * in the body, after its delay) and acks this one; the fifth is recorded as the last. Any
 * throw is our own failure (D1, the queue, a bug), handled by the caller.
 */
async function deliverOne(
  { message, event, destination }: Ready,
  env: Env,
  db: Database,
  batch: BatchState,
): Promise<void> {
  const release = await batch.slots(`${destination.accountId}:${destination.live}`, SLOT_WAIT_MS);
  const tripped = batch.tripped.get(destination.id);
  if (!release || tripped !== undefined) {
    batch.held.push({ message, delaySeconds: delayUntil(tripped ?? nowMs() + BUSY_DELAY_MS, nowMs()) });
    release?.();
    return;
  }
  const { event_id, destination_id } = message.body;
  // A message queued before the attempt travelled in its body: the queue's count stands in.
  const attempt = message.body.attempt ?? message.attempts;
  let outcome: Outcome;
  try {
    outcome = await post(destination, JSON.stringify(serializeThinEvent(event)), env, direct);
  } finally {
    release();
  }
  if (!outcome.ok)
    batch.tripped.set(destination.id, nowMs() + circuitWindowMs(destination.failingSince, nowMs()));
  const last = attempt >= MAX_ATTEMPTS;
  const disabledNow = await recordAttempt(
    db,
    {
      eventId: event.id,
      destinationId: destination.id,
      number: attempt,
      failingSince: destination.failingSince,
    },
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

type BatchRows = {
  events: Map<string, EventRow>;
  destinations: Map<string, EventDestinationRow>;
  /** `account:live` scopes with an open circuit: suspect, their attempts claim leases. */
  suspect: Set<string>;
};

/**
 * The events and destinations a batch names, in one round trip before any POST: read per
 * message, the batch's D1 reads queued behind each other and delayed its later deliveries.
 * The same round trip marks dispatched the events of fan-out messages (the outbox mark a
 * fan-out through the queue leaves to the consumer: all its messages are on the queue, since
 * one of them is here; see `DeliveryMessage.fan_out`), and finds which of the destinations'
 * accounts have an open circuit.
 * At most 50 of each (`max_batch_size`), far under D1's 100 bound parameters per query.
 */
async function batchRows(db: Database, messages: readonly Message<DeliveryMessage>[]): Promise<BatchRows> {
  const eventIds = [...new Set(messages.map((m) => m.body.event_id))];
  const fannedOut = [...new Set(messages.filter((m) => m.body.fan_out === true).map((m) => m.body.event_id))];
  const destinationIds = [...new Set(messages.map((m) => m.body.destination_id))];
  const d = eventDestinations;
  const named = db.select({ accountId: d.accountId }).from(d).where(inArray(d.id, destinationIds));
  const [, eventRows, destinationRows, open] = await db.batch([
    db
      .update(events)
      .set({ dispatchedAt: nowIso() })
      .where(and(inArray(events.id, fannedOut), isNull(events.dispatchedAt))),
    db.select().from(events).where(inArray(events.id, eventIds)),
    db.select().from(d).where(inArray(d.id, destinationIds)),
    db
      .selectDistinct({ accountId: d.accountId, live: d.live })
      .from(d)
      .where(and(inArray(d.accountId, named), gt(d.circuitUntil, nowIso()))),
  ]);
  return {
    events: new Map(eventRows.map((e) => [e.id, e])),
    destinations: new Map(destinationRows.map((r) => [r.id, r])),
    suspect: new Set(open.map((o) => `${o.accountId}:${o.live}`)),
  };
}

/** A message whose event and destination stand: it may be attempted. */
type Ready = { message: Message<DeliveryMessage>; event: EventRow; destination: EventDestinationRow };
type BatchState = { slots: ReturnType<typeof fairSlots>; tripped: Map<string, number>; held: Step[] };

/**
 * Sorts a batch by the circuit breaker (`circuit.ts`): messages to drop (their destination
 * deleted or disabled since), to hold until an open circuit closes, to attempt once they claim
 * their destination's lease (one per destination and batch; the others are held), and to
 * attempt freely.
 */
function sortBatch(messages: readonly Message<DeliveryMessage>[], rows: BatchRows, now: number) {
  const free: Ready[] = [];
  const claims = new Map<string, Ready>();
  const held: Step[] = [];
  for (const message of messages) {
    const event = rows.events.get(message.body.event_id);
    const destination = rows.destinations.get(message.body.destination_id);
    // The scope check repeats fan-out's, so a stray message can never carry one account's
    // event to another.
    const sameScope = event?.accountId === destination?.accountId && event?.live === destination?.live;
    if (!event || !destination || !sameScope || destination.status !== "enabled") {
      message.ack();
      continue;
    }
    const g = gate(destination, rows.suspect.has(`${destination.accountId}:${destination.live}`), now);
    if (g.kind === "open") held.push({ message, delaySeconds: delayUntil(g.until, now) });
    else if (g.kind === "free") free.push({ message, event, destination });
    else if (claims.has(destination.id))
      held.push({ message, delaySeconds: delayUntil(now + BUSY_DELAY_MS, now) });
    else claims.set(destination.id, { message, event, destination });
  }
  return { free, claims: [...claims.values()], held };
}

/** Puts held messages back on the queue after their delay (not an attempt), then acks them. */
async function hold(env: Env, held: Step[]): Promise<void> {
  for (let i = 0; i < held.length; i += 100) {
    const group = held.slice(i, i + 100);
    await env.WEBHOOKS.sendBatch(
      group.map(({ message, delaySeconds }) => ({ body: message.body, delaySeconds })),
    );
    for (const { message } of group) message.ack();
  }
}

/**
 * The `webhook-deliveries` consumer: a batch is sorted by the circuit breaker, the claims of
 * leases made in one round trip, and the attempts made concurrently, acked per message.
 * Our own failure retries the same message, so the same receiver attempt, with our own
 * backoff; past the queue's `max_retries` it goes to the dead-letter queue.
 */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const valid = batch.messages.filter((m) => isDelivery(m.body));
  for (const message of batch.messages) {
    if (isDelivery(message.body)) continue;
    // Retried like our own failure, so it ends in the dead-letter queue, which records it.
    logError("delivery_malformed", null, logIds(message));
    message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
  }
  const ownFailure = (messages: readonly Message<DeliveryMessage>[], err: unknown) => {
    for (const message of messages) {
      logError("delivery_error", err, logIds(message));
      message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
    }
  };
  let sorted: ReturnType<typeof sortBatch>;
  try {
    const now = nowMs();
    sorted = sortBatch(valid, await batchRows(db, valid), now);
    if (sorted.claims.length > 0) {
      const won = await db.batch(
        sorted.claims.map((r) => claimLease(db, r.destination, now)) as [ReturnType<typeof claimLease>],
      );
      sorted.claims.forEach((ready, i) => {
        if ((won[i] as unknown[]).length > 0) sorted.free.push(ready);
        else sorted.held.push({ message: ready.message, delaySeconds: delayUntil(now + BUSY_DELAY_MS, now) });
      });
    }
  } catch (err) {
    // D1 is unavailable: every message waits for our own backoff.
    return ownFailure(valid, err);
  }
  const state: BatchState = { slots: fairSlots(), tripped: new Map(), held: sorted.held.splice(0) };
  await Promise.all(
    sorted.free.map(async (ready) => {
      try {
        await deliverOne(ready, env, db, state);
      } catch (err) {
        ownFailure([ready.message], err);
      }
    }),
  );
  await hold(env, state.held).catch((err) =>
    ownFailure(
      state.held.map((h) => h.message),
      err,
    ),
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
