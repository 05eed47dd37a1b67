import * as z from "zod";
import {
  ATTEMPT_OUTCOMES,
  DESTINATION_STATUSES,
  DISABLED_REASONS,
  EVENT_TYPES,
  isEventType,
} from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { objectId, text } from "../lib/fields";
import { MAX_OVERLAP_SECONDS } from "../webhooks/rotation";

export const MAX_ENABLED_EVENTS = 100;

/** Known event types, or `*` for every current and future type; duplicates are dropped. */
const enabledEvents = /* @__PURE__ */ z
  .array(
    z
      .string()
      .refine((v) => v === "*" || isEventType(v), "must be a known event type or *")
      .meta(globalThis.OMIT_API_DOCS ? {} : { enum: ["*", ...EVENT_TYPES] }),
  )
  .min(1, "must list at least one event type (or *)")
  .max(MAX_ENABLED_EVENTS, `must have at most ${MAX_ENABLED_EVENTS} entries`)
  .transform((types) => [...new Set(types)]);

// The URL's own rule (https, public host) depends on the deployment, so the handler checks it.
const url = text(2048);

export const createDestinationBody = /* @__PURE__ */ z
  .object({ name: text(256), url, enabled_events: enabledEvents })
  .strict();

export const updateDestinationBody = /* @__PURE__ */ z
  .object({ name: text(256).optional(), url: url.optional(), enabled_events: enabledEvents.optional() })
  .strict();

export const listDestinationsQuery = listParams;

export type CreateDestinationBody = z.output<typeof createDestinationBody>;
export type UpdateDestinationBody = z.output<typeof updateDestinationBody>;

export const destinationObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("event_destination"),
    live: z.boolean(),
    name: z.string(),
    url: z.string(),
    enabled_events: z.array(z.string()),
    status: z.enum(DESTINATION_STATUSES),
    disabled_reason: z.enum(DISABLED_REASONS).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

/** The destination with its signing secret: what create, rotate-secret and retrieve return. */
export const destinationWithSecretObject = /* @__PURE__ */ destinationObject
  .extend({
    secret: z
      .string()
      .describe(
        globalThis.OMIT_API_DOCS
          ? ""
          : "The signing secret (`whsec_…`): returned by create, rotate-secret and retrieve only; never by update, enable, disable, lists or events.",
      ),
  })
  .strict();

export type Destination = z.output<typeof destinationObject>;
export type DestinationWithSecret = z.output<typeof destinationWithSecretObject>;

export const listAttemptsQuery = listParams
  .extend({
    event: objectId.optional().describe(globalThis.OMIT_API_DOCS ? "" : "Only the attempts of this event."),
  })
  .strict();

export const resendBody = /* @__PURE__ */ z
  .object({
    event: objectId.describe(
      globalThis.OMIT_API_DOCS ? "" : "A past event of this environment, of a type the destination receives.",
    ),
  })
  .strict();

/**
 * An integer, as JSON Schema states it, without zod's number schema: that would add 1.2 KiB
 * (gzipped) to the API bundle, where no other field is a number.
 */
const integer = /* @__PURE__ */ z
  .unknown()
  .meta(globalThis.OMIT_API_DOCS ? {} : { type: "integer" }) as unknown as z.ZodType<number>;

const OVERLAP = `must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS}`;

export const rotateSecretBody = /* @__PURE__ */ z
  .object({
    overlap_seconds: integer
      .refine((v) => v === undefined || (Number.isInteger(v) && v >= 0 && v <= MAX_OVERLAP_SECONDS), OVERLAP)
      .meta(globalThis.OMIT_API_DOCS ? {} : { minimum: 0, maximum: MAX_OVERLAP_SECONDS })
      .optional()
      .describe(
        globalThis.OMIT_API_DOCS
          ? ""
          : "Seconds the previous secret keeps signing (default 86400; 0: it stops at once).",
      ),
  })
  .strict();

export const attemptObject = /* @__PURE__ */ z
  .object({
    id: z.string(),
    object: z.literal("delivery_attempt"),
    live: z.boolean(),
    event: z.string(),
    attempt: integer.describe("1 to 5 within its delivery; a ping or a resend starts a delivery at 1."),
    status_code: integer.nullable().describe("The receiver's HTTP status; null without an answer."),
    duration_ms: integer.nullable(),
    outcome: z.enum(ATTEMPT_OUTCOMES),
    error: z.string().nullable().describe("Why it failed: `HTTP 500`, `timeout`, `network error: …`."),
    created_at: timestamp,
  })
  .strict();

export type DeliveryAttempt = z.output<typeof attemptObject>;

export type ResendBody = z.output<typeof resendBody>;
export type RotateSecretBody = z.output<typeof rotateSecretBody>;
