import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { createDb, type Database } from "../db/client";
import { deliveryAttempts, type EventDestinationRow, eventDestinations, events } from "../db/schema";
import type { DeliveryMessage } from "../events/dispatch";
import { serializeThinEvent } from "../events/serialize";
import { nowIso, nowMs } from "../lib/clock";
import { newId } from "../lib/ids";
import {
  allowLoopbackDestinations,
  DELIVERY_TIMEOUT_MS,
  DISABLE_AFTER_MS,
  MAX_ATTEMPTS,
  retryDelayAfter,
} from "./config";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";
import { checkDestinationUrl } from "./url";

type Outcome = { ok: boolean; statusCode: number | null; error: string | null; durationMs: number };

/** One POST of the thin body, signed with a fresh timestamp. Never throws. */
async function post(destination: EventDestinationRow, body: string, env: Env): Promise<Outcome> {
  const started = nowMs();
  // Checked again at send time: the rule may have tightened since the URL was saved.
  const url = checkDestinationUrl(destination.url, { allowLoopbackHttp: allowLoopbackDestinations(env) });
  if (!url.ok) return { ok: false, statusCode: null, error: `url rejected: ${url.message}`, durationMs: 0 };
  try {
    const t = Math.floor(nowMs() / 1000);
    const res = await fetch(url.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "invoicing-api-webhooks/1",
        [SIGNATURE_HEADER]: await signatureHeader(destination.secret, t, body),
      },
      body,
      // A redirect is a failed attempt: following it could reach an address we would refuse.
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      statusCode: res.status,
      error: ok ? null : `HTTP ${res.status}`,
      durationMs: nowMs() - started,
    };
  } catch (err) {
    const error =
      err instanceof Error && err.name === "TimeoutError" ? "timeout" : `network error: ${String(err)}`;
    return { ok: false, statusCode: null, error: error.slice(0, 500), durationMs: nowMs() - started };
  }
}

/**
 * Records the attempt and the destination's health in one batch. A failure starts (or
 * continues) its failing streak; a streak of 24 hours disables it. Returns whether it did.
 */
async function recordAttempt(
  db: Database,
  message: Message<DeliveryMessage>,
  destinationId: string,
  outcome: Outcome,
): Promise<boolean> {
  const now = nowIso();
  const attempt = db.insert(deliveryAttempts).values({
    id: newId("deliveryAttempt"),
    eventId: message.body.event_id,
    destinationId,
    attempt: message.attempts,
    outcome: outcome.ok ? "succeeded" : "failed",
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
    createdAt: now,
  });
  const byId = eq(eventDestinations.id, destinationId);
  if (outcome.ok) {
    await db.batch([attempt, db.update(eventDestinations).set({ failingSince: null }).where(byId)]);
    return false;
  }
  const cutoff = new Date(nowMs() - DISABLE_AFTER_MS).toISOString();
  const [, , disabled] = await db.batch([
    attempt,
    db
      .update(eventDestinations)
      .set({ failingSince: sql`coalesce(${eventDestinations.failingSince}, ${now})` })
      .where(byId),
    db
      .update(eventDestinations)
      .set({ status: "disabled", disabledReason: "delivery_failures", updatedAt: now })
      .where(
        and(
          byId,
          eq(eventDestinations.status, "enabled"),
          isNotNull(eventDestinations.failingSince),
          lte(eventDestinations.failingSince, cutoff),
        ),
      )
      .returning({ id: eventDestinations.id }),
  ]);
  return disabled.length > 0;
}

async function deliverOne(message: Message<DeliveryMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB, { rowsRead: 0, rowsWritten: 0 });
  const { event_id, destination_id } = message.body;
  const [eventRows, destinationRows] = await db.batch([
    db.select().from(events).where(eq(events.id, event_id)).limit(1),
    db.select().from(eventDestinations).where(eq(eventDestinations.id, destination_id)).limit(1),
  ]);
  const event = eventRows[0];
  const destination = destinationRows[0];
  // A deleted destination, or one disabled since: deliveries stop. The scope check repeats
  // dispatch's, so a stray message can never carry one account's event to another.
  const sameScope = event?.accountId === destination?.accountId && event?.live === destination?.live;
  if (!event || !destination || !sameScope || destination.status !== "enabled") {
    message.ack();
    return;
  }
  const outcome = await post(destination, JSON.stringify(serializeThinEvent(event)), env);
  const disabledNow = await recordAttempt(db, message, destination.id, outcome);
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
  const db = createDb(env.DB, { rowsRead: 0, rowsWritten: 0 });
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
