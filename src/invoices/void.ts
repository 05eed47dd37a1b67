import { and, eq, sql } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import { invoices, type ServedInvoiceRow, verifactuRecords } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Writer, writeWithEvents } from "../events/write";
import { ApiError } from "../http/errors";
import { nowIso, nowMs } from "../lib/clock";
import { newId } from "../lib/ids";
import { addRecord, pendingSummary } from "../verifactu/chain";
import { requestSubmission } from "../verifactu/dispatch";
import { aeatDate } from "../verifactu/format";
import { cancellationBody, spanishNif } from "../verifactu/record";
import { softwareFor } from "../verifactu/software";
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

/** The cancellation record of an `es` invoice being voided: its statements and its summary. */
function cancellationOf(w: Writer, caller: Caller, row: ServedInvoiceRow) {
  const nif = spanishNif(row.issuer.tax_id);
  if (!nif) throw new Error(`invoice ${row.id} has VERI*FACTU records but no Spanish issuer NIF`);
  const now = nowMs();
  const id = newId("verifactuRecord");
  const body = cancellationBody(
    { IDEmisorFactura: nif, NumSerieFactura: row.number, FechaExpedicionFactura: aeatDate(row.issueDate) },
    softwareFor(w.env, caller.live) ?? undefined,
  );
  const statements = addRecord(w.db, {
    id,
    chain: { ...caller, nif },
    invoiceId: row.id,
    kind: "cancellation",
    body: sql`${JSON.stringify(body)}`,
    now,
    // Only the void of this batch cancels, and only once.
    when: sql`${invoices.status} = 'void' AND NOT EXISTS (SELECT 1 FROM ${verifactuRecords} WHERE ${verifactuRecords.invoiceId} = ${row.id} AND ${verifactuRecords.kind} = 'cancellation')`,
  });
  const summary = pendingSummary(id, "cancellation", now);
  return { statements, summary };
}

/**
 * Voids an issued invoice: `status` becomes `void` with `voided_at` and `void_reason`, and
 * `invoice.voided` is recorded in the same transaction. The row stays, and so does its number:
 * numbering stays gapless. The stored PDF is rendered again with the void mark: clearing
 * `pdf_generated_at` (and `pdf_swept_at`) makes the consumer render it and record
 * `invoice.pdf.generated` again, and the cron sweep ask for it if the message is lost.
 *
 * For an `es` invoice the void is also its VERI*FACTU cancellation (verifactu-system.md §2): a
 * `RegistroAnulacion` joins the issuer's chain in the same batch and goes to the registry; its
 * verdict arrives as `invoice.verifactu_cancellation.*`.
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

  const cancellation = row.verifactuRecords?.length ? cancellationOf(w, caller, row) : null;
  const voided: ServedInvoiceRow = {
    ...row,
    status: "void",
    voidedAt: nowIso(),
    voidReason: body.reason,
    pdfGeneratedAt: null,
    pdfSweptAt: null,
    verifactuRecords: cancellation
      ? [...(row.verifactuRecords ?? []), cancellation.summary]
      : row.verifactuRecords,
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
      ...(cancellation && {
        record: cancellation.statements.insert,
        summary: cancellation.statements.summarize.returning(SERVED_COLUMNS),
      }),
    },
    {
      type: "invoice.voided",
      object: serializeInvoice(voided),
      whileExists: [invoices, invoices.id, VOIDABLE],
      ...(cancellation && {
        fill: {
          [`$.verifactu.records[${row.verifactuRecords?.length ?? 0}].generated_at`]:
            cancellation.statements.generatedAt,
          "$.verifactu.cancellation.generated_at": cancellation.statements.generatedAt,
        },
      }),
    },
  );
  const [updated] = (results.summary ?? results.updated) as ServedInvoiceRow[];
  if (!updated) {
    // Something committed between the read and the write (a payment, a correction, another
    // void): answer for the row as it is now.
    throw (
      refusal(await findInvoice(w.db, caller, id)) ?? new ApiError("resource_conflict", "Retry the request.")
    );
  }
  if (cancellation) w.waitUntil(requestSubmission(w.env, caller));
  w.waitUntil(requestPdf(w.env, id));
  return serializeInvoice(updated);
}
