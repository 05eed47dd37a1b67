import { eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { invoices } from "../db/schema";
import { ApiError } from "../http/errors";
import { findInvoice } from "../invoices/find";
import { serializeInvoice } from "../invoices/serialize";
import { etagOf } from "../tax/documents";
import type { EinvoiceFormat, EinvoiceInput } from "./render";

/**
 * Invoice `id` as a structured e-invoice (`ubl` or `facturae`), built by the renderer Worker
 * (the API Worker has no bundle room for the generators), with its ETag: the quoted SHA-256 of
 * the bytes, which depend only on the invoice. 409 `invoice_not_issued` for a draft, 409
 * `einvoice_missing_data` when the format's rules need what the invoice lacks.
 */
export async function readEinvoice(
  db: Database,
  env: Env,
  caller: Caller,
  id: string,
  format: EinvoiceFormat,
): Promise<{ xml: string; etag: string; filename: string }> {
  const row = await findInvoice(db, caller, id);
  if (row.status === "draft")
    throw new ApiError("invoice_not_issued", `Invoice ${id} is a draft: finalize it to get its e-invoice.`);
  const [corrected] = row.correctsInvoiceId
    ? await db
        .select({ number: invoices.number, issue_date: invoices.issueDate })
        .from(invoices)
        .where(eq(invoices.id, row.correctsInvoiceId))
    : [];
  const input: EinvoiceInput = {
    invoice: serializeInvoice(row),
    corrected:
      corrected?.number && corrected.issue_date
        ? { number: corrected.number, issue_date: corrected.issue_date }
        : null,
  };
  const res = await env.PDF_RENDERER.fetch(`https://pdf-renderer/${format}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
  if (res.status === 422) {
    const { message } = (await res.json()) as { message: string };
    throw new ApiError("einvoice_missing_data", message);
  }
  if (!res.ok) throw new Error(`the PDF renderer answered ${res.status}`);
  const xml = await res.text();
  return {
    xml,
    etag: await etagOf(xml),
    filename: `${row.number}${format === "ubl" ? ".ubl" : ".facturae"}.xml`,
  };
}
