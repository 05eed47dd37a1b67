import type { Caller } from "../../contracts/caller";
import type { Writer } from "../../events/write";
import { findInvoice } from "../find";
import { generatePdf, pdfKey, renderPdf } from "./generate";

/**
 * Invoice `id`'s PDF and its file name: the stored file, or rendered now (and stored) when the
 * one generated after issuance is not there yet; a draft's, rendered now and not stored.
 */
export async function readInvoicePdf(
  w: Writer,
  caller: Caller,
  id: string,
): Promise<{ filename: string; body: ReadableStream | Uint8Array<ArrayBuffer> }> {
  const row = await findInvoice(w.db, caller, id);
  // A draft is a preview: rendered on each request with its mark, never stored.
  if (row.status === "draft") {
    return { filename: `${row.id}-draft.pdf`, body: (await renderPdf(w, row)) as Uint8Array<ArrayBuffer> };
  }
  const filename = `${row.number}.pdf`;
  // A void invoice's stored file predates its void until the consumer renders it again (with
  // the mark), which it signals by setting `pdf_generated_at`: until then, render it here.
  const stale = row.status === "void" && row.pdfGeneratedAt === null;
  const stored = stale ? null : await w.env.PDFS.get(pdfKey(row));
  if (stored) return { filename, body: stored.body };
  return { filename, body: (await generatePdf(w, row)) as Uint8Array<ArrayBuffer> };
}
