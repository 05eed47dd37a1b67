import { logError } from "../../lib/log";

/**
 * Asks for an invoice's PDF; whether the queue took the message. Never throws: the cron sweep
 * asks again for a lost one.
 */
export async function requestPdf(env: Env, invoiceId: string): Promise<boolean> {
  try {
    await env.INVOICE_PDFS.send({ invoice_id: invoiceId });
    return true;
  } catch (err) {
    logError("pdf_dispatch_error", err, { invoice_id: invoiceId });
    return false;
  }
}
