/**
 * Invoice PDFs as the tests drive them: the INVOICE_PDFS producer leads to a queue without a
 * consumer (vitest.config.ts); a test runs the worker's consumer on the invoice it cares about.
 */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { PDF_QUEUE } from "../../src/contracts/pdf-message";
import { perShard } from "../../src/db/shards";
import { handlePdfs } from "../../src/invoices/pdf/consumer";

/** One consumer turn on `invoiceId`'s message, as the queue would deliver it; waits for the event fan-out. */
export async function runPdfGeneration(invoiceId: string, shard?: string) {
  const batch = createMessageBatch(PDF_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { invoice_id: invoiceId, shard } },
  ]);
  const ctx = createExecutionContext();
  // Split by shard as the background Worker does (src/jobs.ts).
  await perShard(batch, env, (own, shardEnv) => handlePdfs(own, shardEnv, ctx));
  await waitOnExecutionContext(ctx);
}
