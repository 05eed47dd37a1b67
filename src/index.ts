import { env } from "cloudflare:workers";
import { app } from "./app";
import { config } from "./config";
import { deleteExpiredIdempotencyKeys } from "./lib/idempotency";
import { DEAD_LETTER_QUEUE } from "./webhooks/config";
import { deliverBatch, recordExhausted } from "./webhooks/consumer";
import type { DeliveryMessage } from "./webhooks/message";
import { sweepUndispatched } from "./webhooks/sweep";

// A malformed `[vars]` value stops the Worker at startup instead of shifting behaviour.
config(env);

// Only handlers may be exported here: workerd treats every named export as an entrypoint.
export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === DEAD_LETTER_QUEUE) await recordExhausted(batch, env);
    else await deliverBatch(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepUndispatched(env));
    ctx.waitUntil(deleteExpiredIdempotencyKeys(env));
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
