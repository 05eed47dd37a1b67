import { app } from "./app";
import { type DeliveryMessage, sweepUndispatched } from "./events/dispatch";
import { DEAD_LETTER_QUEUE } from "./webhooks/config";
import { deliverBatch, recordExhausted } from "./webhooks/deliver";

// Only handlers may be exported here: workerd treats every named export as an entrypoint.

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === DEAD_LETTER_QUEUE) await recordExhausted(batch, env);
    else await deliverBatch(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepUndispatched(env));
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
