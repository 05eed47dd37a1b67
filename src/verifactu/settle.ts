import { and, eq, type SQL, sql } from "drizzle-orm";
import type { InvoiceRow } from "../db/schema";
import { invoices } from "../db/schema";
import { type EventSpec, type Writer, writeWithEvents } from "../events/write";
import { serializeInvoice } from "../invoices/serialize";
import type { RecordOutcome } from "./registry";

/** A literal, so that the row's guard and its event's read the same state (and the pending index applies). */
const PENDING: SQL = sql`${invoices.verifactuStatus} = 'pending'`;

/**
 * Writes the registry's verdict on each record, with its event
 * `invoice.verifactu_registration.<status>` (the invoice as it now reads), in one batch. Only a
 * record still pending moves, so an answer processed twice records no second event. A
 * rejected record stays rejected: fixing it is a new, corrective invoice (compliance.md).
 */
export async function settleRecords(
  w: Writer,
  rows: readonly InvoiceRow[],
  outcomes: readonly RecordOutcome[],
) {
  const update = (row: InvoiceRow, outcome: RecordOutcome) =>
    w.db
      .update(invoices)
      .set({ verifactuStatus: outcome.status, verifactuErrors: outcome.errors })
      .where(and(eq(invoices.id, row.id), PENDING));
  const statements: Record<string, ReturnType<typeof update>> = {};
  const events: EventSpec[] = [];
  rows.forEach((row, i) => {
    const outcome = outcomes[i];
    if (!outcome) throw new Error("a registry answer without an outcome per record");
    statements[row.id] = update(row, outcome);
    events.push({
      type: `invoice.verifactu_registration.${outcome.status}`,
      object: serializeInvoice({ ...row, verifactuStatus: outcome.status, verifactuErrors: outcome.errors }),
      whileExists: [invoices, invoices.id, PENDING],
    });
  });
  await writeWithEvents(w, statements, ...events);
}
