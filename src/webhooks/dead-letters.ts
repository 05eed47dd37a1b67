import type { Database } from "../db/client";
import { deliveryAttempts, webhookDeadLetters } from "../db/schema";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";

export type Delivery = { eventId: string; destinationId: string; attempt: number };
export type DeadLetterReason = (typeof webhookDeadLetters.$inferInsert)["reason"];

/** The delivery log's `error` for each way a delivery stops. */
const WHY: Record<DeadLetterReason, string> = {
  exhausted: "all attempts failed; no more retries",
  dead_lettered: "our processing failed on every try; not attempted again until re-driven",
};

/**
 * The two writes that stop a delivery, for one batch: its `exhausted` line in the delivery
 * log, and its dead letter, kept until `npm run webhooks:redrive` queues it again (or 30 days).
 * A delivery that dies again after a re-drive replaces its earlier dead letter.
 */
export function deadLetterWrites(db: Database, delivery: Delivery, reason: DeadLetterReason) {
  const now = nowIso();
  const d = webhookDeadLetters;
  return [
    db.insert(deliveryAttempts).values({
      id: newId("deliveryAttempt"),
      eventId: delivery.eventId,
      destinationId: delivery.destinationId,
      attempt: delivery.attempt,
      outcome: "exhausted",
      statusCode: null,
      durationMs: null,
      error: WHY[reason],
      createdAt: now,
    }),
    db
      .insert(d)
      .values({ ...delivery, reason, createdAt: now, redriveRequestedAt: null })
      .onConflictDoUpdate({
        target: [d.eventId, d.destinationId],
        set: { reason, attempt: delivery.attempt, createdAt: now, redriveRequestedAt: null },
      }),
  ] as const;
}
