/**
 * Invoice PDFs as the tests drive them: the INVOICE_PDFS producer leads to a queue without a
 * consumer (vitest.config.ts); a test runs the worker's consumer on the invoice it cares about.
 */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { handlePdfs } from "../../src/invoices/pdf/consumer";
import { PDF_QUEUE } from "../../src/invoices/pdf/message";

/** One consumer turn on `invoiceId`'s message, as the queue would deliver it; waits for the event fan-out. */
export async function runPdfGeneration(invoiceId: string) {
  const batch = createMessageBatch(PDF_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { invoice_id: invoiceId } },
  ]);
  const ctx = createExecutionContext();
  await handlePdfs(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}
