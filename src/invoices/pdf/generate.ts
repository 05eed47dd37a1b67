import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type InvoiceRow, invoices, type ServedInvoiceRow } from "../../db/schema";
import { type Writer, writeWithEvents } from "../../events/write";
import { nowIso } from "../../lib/clock";
import type { PdfInput } from "../../pdf/types";
import { serializeInvoice } from "../serialize";

/** Where an invoice's PDF lives in R2: per account and environment, by invoice id. */
export const pdfKey = (row: Pick<InvoiceRow, "accountId" | "live" | "id">): string =>
  `invoices/${row.accountId}/${row.live ? "live" : "test"}/${row.id}.pdf`;

/** What the renderer draws: the invoice as the API shows it, the corrected invoice's number and date, the QR. */
async function pdfInput(db: Database, row: ServedInvoiceRow): Promise<PdfInput> {
  const invoice = serializeInvoice(row);
  const [corrected] = row.correctsInvoiceId
    ? await db
        .select({ number: invoices.number, issue_date: invoices.issueDate })
        .from(invoices)
        .where(eq(invoices.id, row.correctsInvoiceId))
    : [];
  return { invoice, corrected: corrected ?? null, qrUrl: invoice.verifactu?.qr_url ?? null };
}

/** The PDF from the renderer Worker (wrangler.pdf.toml), through the PDF_RENDERER service binding. */
async function render(env: Env, input: PdfInput): Promise<Uint8Array> {
  const res = await env.PDF_RENDERER.fetch("https://pdf-renderer/render", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
  if (!res.ok) throw new Error(`the PDF renderer answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The invoice's PDF as the renderer draws it now, stored nowhere (a draft's, marked and without QR). */
export async function renderPdf(w: Writer, row: ServedInvoiceRow): Promise<Uint8Array> {
  return render(w.env, await pdfInput(w.db, row));
}

const NOT_GENERATED = sql`${invoices.pdfGeneratedAt} IS NULL`;

/**
 * Renders an invoice's PDF, stores it in R2 and records `invoice.pdf.generated` the first time
 * (the row's `pdf_generated_at` guards the event, so two generations record one). The renderer
 * is deterministic, so a second generation stores the same bytes. Returns them.
 *
 * A void clears `pdf_generated_at` so that the PDF is rendered again, with its mark, and the
 * event recorded again. The guard also names the status that was rendered: a render of the
 * issued invoice that finishes after the void records nothing, and leaves the void's own
 * render to set `pdf_generated_at`.
 */
export async function generatePdf(w: Writer, row: ServedInvoiceRow): Promise<Uint8Array> {
  const pdf = await renderPdf(w, row);
  await w.env.PDFS.put(pdfKey(row), pdf, { httpMetadata: { contentType: "application/pdf" } });
  if (row.pdfGeneratedAt === null) {
    const unchanged = sql`${NOT_GENERATED} AND ${invoices.status} = ${row.status}`;
    await writeWithEvents(
      w,
      {
        stored: w.db
          .update(invoices)
          .set({ pdfGeneratedAt: nowIso() })
          .where(and(eq(invoices.id, row.id), unchanged)),
      },
      {
        type: "invoice.pdf.generated",
        object: serializeInvoice(row),
        whileExists: [invoices, invoices.id, unchanged],
      },
    );
  }
  return pdf;
}
