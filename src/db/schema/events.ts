import { sql } from "drizzle-orm";
import { index, integer, primaryKey, type SQLiteColumn, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { DELIVERY_OUTCOMES, DESTINATION_STATUSES, DISABLED_REASONS, EVENT_TYPES } from "../../constants";
import { accounts } from "./accounts";

export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    type: text("type", { enum: EVENT_TYPES }).notNull(),
    /** JSON of the related object when the event happened (immutable). */
    data: text("data").notNull(),
    relatedObjectId: text("related_object_id").notNull(),
    relatedObjectType: text("related_object_type").notNull(),
    createdAt: text("created_at").notNull(),
    /**
     * Set with the write's first attempts (or at birth when nobody listens; for an event the
     * sweep queued, by the delivery consumer that first takes one of its messages); the cron
     * sweep queues again what is still unset.
     */
    dispatchedAt: text("dispatched_at"),
    /** When the cron sweep queued it: the sweep queues an event at most once. */
    sweptAt: text("swept_at"),
  },
  (t) => [
    index("events_list_idx").on(t.accountId, t.live, t.id),
    index("events_type_idx").on(t.accountId, t.live, t.type, t.id),
    index("events_related_idx").on(t.accountId, t.live, t.relatedObjectId, t.id),
    // Partial: only what the sweep looks for, so the usual event (born dispatched, or
    // delivered, or queued by the sweep once already) skips it. Led by the account, so that
    // the sweep takes accounts in turn (src/webhooks/sweep.ts).
    index("events_unswept_account_idx")
      .on(t.accountId, t.createdAt, t.id)
      .where(sql`${t.dispatchedAt} IS NULL AND ${t.sweptAt} IS NULL`),
    // Retention deletes by age through it (src/retention/expire.ts).
    index("events_created_idx").on(t.createdAt),
  ],
);

export const eventDestinations = sqliteTable(
  "event_destinations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    name: text("name").notNull(),
    url: text("url").notNull(),
    /** JSON array of event types, or `["*"]`. */
    enabledEvents: text("enabled_events", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: DESTINATION_STATUSES }).notNull(),
    disabledReason: text("disabled_reason", { enum: DISABLED_REASONS }),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing (a second `v1`) until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    /** First failed attempt after the last success; null while deliveries succeed. */
    failingSince: text("failing_since"),
    /** The circuit breaker: open (no attempt) until then, after a failed attempt (src/webhooks/circuit.ts). */
    circuitUntil: text("circuit_until"),
    /** A claimed attempt holds the destination until then: one in flight while it fails. */
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("event_destinations_list_idx").on(t.accountId, t.live, t.id)],
);

/**
 * The rows the delivery log API lists: requests actually sent. The `exhausted` line a stopped
 * delivery adds is left out; the log's indexes hold only these rows, so a page reads its own.
 */
const SENT = (outcome: SQLiteColumn) => sql`${outcome} in ('succeeded', 'failed')`;

/** One row per delivery attempt: the delivery log. */
export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    destinationId: text("destination_id").notNull(),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: DELIVERY_OUTCOMES }).notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // GET /v1/event-destinations/{id}/attempts, without and with `?event=`.
    index("delivery_attempts_log_idx").on(t.destinationId, t.id).where(SENT(t.outcome)),
    index("delivery_attempts_log_event_idx").on(t.destinationId, t.eventId, t.id).where(SENT(t.outcome)),
    index("delivery_attempts_event_idx").on(t.eventId, t.id),
    index("delivery_attempts_created_idx").on(t.createdAt),
  ],
);

/** Why a delivery stopped: the receiver failed its 5 attempts, or our own processing kept failing. */
export const DEAD_LETTER_REASONS = ["exhausted", "dead_lettered"] as const;

/**
 * Deliveries that will not be attempted again until re-driven (`npm run webhooks:redrive`):
 * one row per (event, destination), whatever the cause. Kept 30 days, like its event.
 */
export const webhookDeadLetters = sqliteTable(
  "webhook_dead_letters",
  {
    eventId: text("event_id").notNull(),
    destinationId: text("destination_id").notNull(),
    reason: text("reason", { enum: DEAD_LETTER_REASONS }).notNull(),
    /** The receiver's attempt the delivery stopped at. */
    attempt: integer("attempt").notNull(),
    createdAt: text("created_at").notNull(),
    /** Set by the re-drive script; the cron then queues the delivery afresh and deletes the row. */
    redriveRequestedAt: text("redrive_requested_at"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.destinationId] }),
    index("webhook_dead_letters_created_idx").on(t.createdAt),
    index("webhook_dead_letters_redrive_idx")
      .on(t.redriveRequestedAt)
      .where(sql`${t.redriveRequestedAt} IS NOT NULL`),
  ],
);

/** The delivery log's filter, as its partial indexes state it (literals, so SQLite can use them). */
export const sentAttempt = SENT(deliveryAttempts.outcome);

export type EventRow = typeof events.$inferSelect;
export type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;
export type EventDestinationRow = typeof eventDestinations.$inferSelect;
