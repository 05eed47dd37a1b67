import { and, eq, sql } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import { invoices, type ServedInvoiceRow } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Writer, writeWithEvents } from "../events/write";
import { ApiError } from "../http/errors";
import { nowIso } from "../lib/clock";
import { findInvoice, SERVED_COLUMNS } from "./find";
import { requestPdf } from "./pdf/dispatch";
import type { Invoice, voidInvoiceBody } from "./schemas";
import { serializeInvoice } from "./serialize";

/**
 * What a void needs of the row, in SQL: issued, no payment recorded, never corrected. The
 * UPDATE and its event's guard both use it, so in one transaction either both happen or
 * neither does, whatever a concurrent payment, correction or void committed before.
 */
const VOIDABLE = sql`${invoices.status} = 'issued' AND ${invoices.amountPaid} = 0 AND json_array_length(${invoices.correctedBy}) = 0`;

/** Why `row` cannot be voided (the 409 to answer), or null when it can. */
function refusal(row: ServedInvoiceRow): ApiError | null {
  if (row.status !== "issued") {
    return new ApiError(
      "invoice_not_voidable",
      `Only an issued invoice can be voided; invoice '${row.id}' is ${row.status}.`,
    );
  }
  if (row.amountPaid > 0) {
    return new ApiError(
      "invoice_has_payments",
      `Invoice '${row.id}' has payments recorded: an invoice with payments cannot be voided.`,
    );
  }
  if (row.correctedBy.length > 0) {
    return new ApiError(
      "invoice_corrected",
      `Invoice '${row.id}' has been corrected (${row.correctedBy.join(", ")}): a corrected invoice cannot be voided.`,
    );
  }
  return null;
}

/**
 * Voids an issued invoice: `status` becomes `void` with `voided_at` and `void_reason`, and
 * `invoice.voided` is recorded in the same transaction. The row stays, and so does its number:
 * numbering stays gapless. The stored PDF is rendered again with the void mark: clearing
 * `pdf_generated_at` (and `pdf_swept_at`) makes the consumer render it and record
 * `invoice.pdf.generated` again, and the cron sweep ask for it if the message is lost.
 *
 * For `es` accounts the void will also be the VERI*FACTU cancellation of the invoice's record
 * (docs/invoices.md); that record is not built yet.
 */
export async function voidInvoice(
  w: Writer,
  caller: Caller,
  id: string,
  body: z.output<typeof voidInvoiceBody>,
): Promise<Invoice> {
  const row = await findInvoice(w.db, caller, id);
  const refused = refusal(row);
  if (refused) throw refused;

  const voided: ServedInvoiceRow = {
    ...row,
    status: "void",
    voidedAt: nowIso(),
    voidReason: body.reason,
    pdfGeneratedAt: null,
    pdfSweptAt: null,
  };
  const { results } = await writeWithEvents(
    w,
    {
      updated: w.db
        .update(invoices)
        .set({
          status: voided.status,
          voidedAt: voided.voidedAt,
          voidReason: voided.voidReason,
          pdfGeneratedAt: null,
          pdfSweptAt: null,
        })
        .where(and(eq(invoices.id, id), ownedBy(invoices, caller), VOIDABLE))
        .returning(SERVED_COLUMNS),
    },
    {
      type: "invoice.voided",
      object: serializeInvoice(voided),
      whileExists: [invoices, invoices.id, VOIDABLE],
    },
  );
  const [updated] = results.updated;
  if (!updated) {
    // Something committed between the read and the write (a payment, a correction, another
    // void): answer for the row as it is now.
    throw (
      refusal(await findInvoice(w.db, caller, id)) ?? new ApiError("resource_conflict", "Retry the request.")
    );
  }
  w.waitUntil(requestPdf(w.env, id));
  return serializeInvoice(updated);
}
