import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  accountEnvironments,
  invoices,
  type ServedInvoiceRow,
  type VerifactuRecordRow,
  verifactuRecords,
} from "../db/schema";
import { type EventSpec, type Writer, writeWithEvents } from "../events/write";
import { serializeInvoice } from "../invoices/serialize";
import { updateSummary } from "./chain";
import type { RecordOutcome, SubmissionAnswer } from "./registry";

type Answered = Extract<SubmissionAnswer, { kind: "answered" }>;

const r = verifactuRecords;
/** A literal, so that the row's guard and its event's read the same state (and the pending index applies). */
const pendingRecord = (id: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${r} WHERE ${r.id} = ${id} AND ${r.status} = 'pending')`;

/** The event of a record's verdict (verifactu-system.md §1, §2). */
function eventType(row: VerifactuRecordRow, status: RecordOutcome["status"]) {
  if (row.kind !== "cancellation") return `invoice.verifactu_registration.${status}` as const;
  return status === "rejected"
    ? ("invoice.verifactu_cancellation.rejected" as const)
    : ("invoice.verifactu_cancellation.accepted" as const);
}

/**
 * Writes the registry's verdict on each record of a request, with its event (the invoice as
 * it now reads), in one batch: the record's status and errors, and on its invoice's summary
 * also when it was sent and, when registered, AEAT's receipt (`csv`, `registered_at`), which
 * AEAT gives once. Only a record still pending moves, so an answer processed twice records no
 * second event. A request never carries two records of one invoice (submit.ts).
 */
export async function settleRecords(
  w: Writer,
  rows: readonly VerifactuRecordRow[],
  owners: ReadonlyMap<string, ServedInvoiceRow>,
  answer: Answered,
  submittedAt: string,
) {
  const statements: Record<string, BatchItem<"sqlite">> = {};
  const events: EventSpec[] = [];
  rows.forEach((row, i) => {
    const outcome = answer.outcomes[i];
    const invoice = owners.get(row.invoiceId);
    if (!outcome || !invoice) throw new Error("a registry answer without an outcome per record");
    const registered = outcome.status !== "rejected";
    const change = {
      status: outcome.status,
      errors: outcome.errors,
      submitted_at: submittedAt,
      csv: (registered && answer.csv) || null,
      registered_at: (registered && answer.registeredAt) || null,
    };
    statements[`r${i}`] = w.db
      .update(r)
      .set({ status: outcome.status, errors: outcome.errors })
      .where(and(eq(r.id, row.id), eq(r.status, "pending")));
    statements[`s${i}`] = updateSummary(w.db, row.invoiceId, row.position, change, row.kind);
    const summaries = (invoice.verifactuRecords ?? []).map((s, p) =>
      p === row.position ? { ...s, ...change } : s,
    );
    const status = row.kind === "cancellation" ? invoice.verifactuStatus : outcome.status;
    events.push({
      type: eventType(row, outcome.status),
      object: serializeInvoice({ ...invoice, verifactuStatus: status, verifactuRecords: summaries }),
      whileExists: [invoices, invoices.id, pendingRecord(row.id)],
    });
  });
  if (answer.outcomes.some((o) => o.status !== "rejected")) {
    statements.accepted = w.db
      .update(accountEnvironments)
      .set({ verifactuLastAcceptedAt: Date.parse(submittedAt) })
      .where(
        and(eq(accountEnvironments.accountId, w.scope.accountId), eq(accountEnvironments.live, w.scope.live)),
      );
  }
  await writeWithEvents(w, statements, ...events);
}
