import * as z from "zod";
import { EVENT_TYPES } from "../constants";
import { listParams } from "../http/pagination";
import { timestamp } from "../http/schemas";
import { objectId } from "../lib/fields";

export const listEventsQuery = listParams
  .extend({
    type: z.enum(EVENT_TYPES).optional(),
    related_object: objectId
      .describe(
        globalThis.OMIT_API_DOCS ? "" : "Every event about one object: an id such as `inv_…` or `cus_…`.",
      )
      .optional(),
  })
  .strict();

export const relatedObject = /* @__PURE__ */ z
  .object({ id: z.string(), type: z.string(), url: z.string() })
  .strict();

export const eventObject = /* @__PURE__ */ z
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
