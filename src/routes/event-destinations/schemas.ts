import * as z from "zod";
import { DESTINATION_STATUSES, DISABLED_REASONS, isEventType } from "../../constants";
import { timestamp } from "../../lib/api-schemas";
import { listParams } from "../../lib/pagination";
import { text } from "../../lib/validation";

export const MAX_ENABLED_EVENTS = 100;

/** Known event types, or `*` for every current and future type; duplicates are dropped. */
const enabledEvents = z
  .array(z.string().refine((v) => v === "*" || isEventType(v), "must be a known event type or *"))
  .min(1, "must list at least one event type (or *)")
  .max(MAX_ENABLED_EVENTS, `must have at most ${MAX_ENABLED_EVENTS} entries`)
  .transform((types) => [...new Set(types)]);

// The URL's own rule (https, public host) depends on the deployment, so the handler checks it.
const url = text(2048);

export const createDestinationBody = z
  .object({ name: text(256), url, enabled_events: enabledEvents })
  .strict();

export const updateDestinationBody = z
  .object({ name: text(256).optional(), url: url.optional(), enabled_events: enabledEvents.optional() })
  .strict();

export const listDestinationsQuery = listParams;

export type CreateDestinationBody = z.output<typeof createDestinationBody>;
export type UpdateDestinationBody = z.output<typeof updateDestinationBody>;

export const destinationObject = z
  .object({
    id: z.string(),
    object: z.literal("event_destination"),
    live: z.boolean(),
    name: z.string(),
    url: z.string(),
    enabled_events: z.array(z.string()),
    status: z.enum(DESTINATION_STATUSES),
    disabled_reason: z.enum(DISABLED_REASONS).nullable(),
    secret: z.string().optional().describe("The signing secret: on create and retrieve, never in lists."),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .strict();

export type Destination = z.output<typeof destinationObject>;
