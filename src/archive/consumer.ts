import { isPdfMessage } from "../contracts/pdf-message";
import { logError } from "../lib/log";
import { archiveInvoice } from "./write";

/**
 * After the `invoice-pdfs` consumer's turn on a batch (src/jobs.ts): archives each invoice
 * whose PDF is now stored, the first moment its JSON, PDF and VERI*FACTU records are all there.
 * Best effort: a failure is logged, and the cron sweep archives what is left.
 */
export async function archiveAfterPdfs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const ids = new Set(batch.messages.flatMap((m) => (isPdfMessage(m.body) ? [m.body.invoice_id] : [])));
  for (const id of ids) {
    await archiveInvoice(env, id).catch((err) => logError("archive_error", err, { invoice_id: id }));
  }
}
