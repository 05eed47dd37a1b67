import type { ShardStamp } from "./shard-stamp";

export const PDF_QUEUE = "invoice-pdfs";

/** The contract of the `invoice-pdfs` queue: render and store this invoice's PDF. */
export type PdfMessage = ShardStamp & { invoice_id: string };

export function isPdfMessage(body: unknown): body is PdfMessage {
  return typeof (body as Partial<PdfMessage> | null)?.invoice_id === "string";
}

declare global {
  interface Env {
    /** The producer binding, typed with the message it carries. */
    INVOICE_PDFS: Queue<PdfMessage>;
  }
}
