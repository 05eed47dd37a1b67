import * as z from "zod";
import { EVENT_TYPES } from "../../constants";
import { timestamp } from "../../lib/api-schemas";
import { listParams } from "../../lib/pagination";

export const listEventsQuery = listParams
  .extend({
    type: z.enum(EVENT_TYPES).optional(),
    /** Everything that happened to one object: an id such as `inv_…` or `cus_…`. */
    related_object: z.string().max(64, "must be at most 64 characters").optional(),
  })
  .strict();

export const relatedObject = z.object({ id: z.string(), type: z.string(), url: z.string() }).strict();

export const eventObject = z
  .object({
    id: z.string(),
    object: z.literal("event"),
    type: z.enum(EVENT_TYPES),
    live: z.boolean(),
    created_at: timestamp,
    data: z.object({ object: z.unknown() }).strict().describe("The related object when the event happened."),
    related_object: relatedObject,
  })
  .strict();
