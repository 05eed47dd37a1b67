import { env } from "cloudflare:workers";
import { app } from "./app";
import { config } from "./config";
import { logError } from "./lib/log";
import { deleteExpiredData } from "./lib/retention";
import { DEAD_LETTER_QUEUE } from "./webhooks/config";
import { deliverBatch, recordDeadLetters } from "./webhooks/consumer";
import type { DeliveryMessage } from "./webhooks/message";
import { redriveRequested } from "./webhooks/redrive";
import { sweepUndispatched } from "./webhooks/sweep";

// A malformed `[vars]` value stops the Worker at startup instead of shifting behaviour.
config(env);

/** One cron chore: its failure is logged and does not stop the others. */
function chore(name: string, run: () => Promise<unknown>): Promise<void> {
  return run().then(
    () => undefined,
    (err) => logError("cron_error", err, { code: name }),
  );
}

// Only handlers may be exported here: workerd treats every named export as an entrypoint.
export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === DEAD_LETTER_QUEUE) await recordDeadLetters(batch, env);
    else await deliverBatch(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(chore("sweep", () => sweepUndispatched(env)));
    ctx.waitUntil(chore("redrive", () => redriveRequested(env)));
    ctx.waitUntil(chore("retention", () => deleteExpiredData(env)));
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
