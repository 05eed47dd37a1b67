import { env } from "cloudflare:workers";
import { archiveAfterPdfs } from "./archive/consumer";
import { sweepUnarchived } from "./archive/sweep";
import { config } from "./config";
import type { DeliveryMessage } from "./contracts/delivery-message";
import { PDF_QUEUE } from "./contracts/pdf-message";
import { VERIFACTU_QUEUE } from "./contracts/submission-message";
import type { VerificationMessage } from "./contracts/verification-message";
import { perShard, shardEnv, shardNames } from "./db/shards";
import { recordOverdueInvoices } from "./invoices/overdue";
import { handlePdfs } from "./invoices/pdf/consumer";
import { sweepMissingPdfs } from "./invoices/pdf/sweep";
import { logError } from "./lib/log";
import { deleteExpiredData } from "./retention/expire";
import { canSendLive, recordRegistryFor } from "./verifactu";
import { handleSubmissions } from "./verifactu/consumer";
import { softwareFor } from "./verifactu/software";
import { sweepPendingRecords } from "./verifactu/sweep";
import { registryFor } from "./verification";
import { VERIFICATION_DEAD_LETTER_QUEUE, VERIFICATION_QUEUE } from "./verification/config";
import { failDeadVerifications, verifyBatch } from "./verification/consumer";
import { sweepUnqueuedVerifications } from "./verification/sweep";
import { DEAD_LETTER_QUEUE } from "./webhooks/config";
import { deliverBatch, recordDeadLetters } from "./webhooks/consumer";
import { redriveRequested } from "./webhooks/redrive";
import { sweepUndispatched } from "./webhooks/sweep";

// The background Worker (wrangler.jobs.toml): every queue consumer and the cron sweeps. It
// shares the API's bindings; a malformed `[vars]` value (SHARDS included) stops it at startup
// too. Every handler works on one shard: a batch is split by its messages' shard, and each
// cron chore runs once per shard.
config(env);
shardNames(env);
// The VERI*FACTU software identity, whose NIF control character config.ts cannot check.
softwareFor(env, true);

/** One cron chore: its failure is logged and does not stop the others. */
function chore(name: string, run: () => Promise<unknown>): Promise<void> {
  return run().then(
    () => undefined,
    (err) => logError("cron_error", err, { code: name }),
  );
}

/** One shard's messages of one queue: the batch names the queue it comes from. */
async function consume(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  if (batch.queue === PDF_QUEUE) {
    await handlePdfs(batch, env, ctx);
    // The invoice's archive (src/archive/), once its PDF is stored; the cron sweep retries.
    await archiveAfterPdfs(batch, env);
  } else if (batch.queue === VERIFACTU_QUEUE) {
    await handleSubmissions(batch, env, ctx, recordRegistryFor);
  } else if (batch.queue === VERIFICATION_QUEUE) {
    await verifyBatch(batch as MessageBatch<VerificationMessage>, env, ctx, registryFor);
  } else if (batch.queue === VERIFICATION_DEAD_LETTER_QUEUE) {
    await failDeadVerifications(batch as MessageBatch<VerificationMessage>, env, ctx);
  } else if (batch.queue === DEAD_LETTER_QUEUE) {
    await recordDeadLetters(batch as MessageBatch<DeliveryMessage>, env);
  } else {
    await deliverBatch(batch as MessageBatch<DeliveryMessage>, env);
  }
}

// Only handlers may be exported here: workerd treats every named export as an entrypoint.
export default {
  async queue(batch, env, ctx) {
    await perShard(
      batch,
      env,
      (shardBatch, shard) => consume(shardBatch, shard, ctx),
      (err) => logError("shard_follow_error", err),
    );
  },
  async scheduled(_controller, env, ctx) {
    for (const name of shardNames(env)) {
      const shard = shardEnv(env, name);
      ctx.waitUntil(chore("sweep", () => sweepUndispatched(shard)));
      ctx.waitUntil(chore("verification_sweep", () => sweepUnqueuedVerifications(shard)));
      ctx.waitUntil(chore("verifactu_sweep", () => sweepPendingRecords(shard, canSendLive(shard))));
      ctx.waitUntil(chore("pdf_sweep", () => sweepMissingPdfs(shard)));
      ctx.waitUntil(chore("archive_sweep", () => sweepUnarchived(shard)));
      ctx.waitUntil(chore("overdue", () => recordOverdueInvoices(shard, ctx)));
      ctx.waitUntil(chore("redrive", () => redriveRequested(shard)));
      ctx.waitUntil(chore("retention", () => deleteExpiredData(shard)));
    }
  },
  // Four queues feed it (deliveries, verifications, VERI*FACTU submissions, PDFs; two with dead
  // letters): each consumer checks its own message shape, so the batch type is left open here.
} satisfies ExportedHandler<Env, unknown>;
