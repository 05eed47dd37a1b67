import { and, eq, sql } from "drizzle-orm";
import { usageDebit } from "../balance/usage";
import { config } from "../config";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { isForeignKeyViolation, isNotNullViolation, isRaised, isUniqueViolation } from "../db/errors";
import { accounts, invoices, type ServedInvoiceRow } from "../db/schema";
import type { EventSpec, Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { ApiError } from "../http/errors";
import { newId } from "../lib/ids";
import { requestSubmission } from "../verifactu/dispatch";
import { refuseUnready } from "../verifactu/readiness";
import { buildInvoice, type IssueRequest } from "./build";
import { loadContextFor } from "./context";
import { findDraft, SERVED_COLUMNS } from "./find";
import { DEFAULT_SERIES } from "./numbering";
import { requestPdf } from "./pdf/dispatch";
import { issuedPaths, pendingCopy, withRecord } from "./registration";
import type { CreateInvoiceBody, Invoice } from "./schemas";
import { serializeInvoice } from "./serialize";

// The INSERT takes its own number, so concurrent issues never race for one. What can still
// change between the read and the write (a first invoice binding the series, a later issue
// date, a new customer prefix) is refused by a trigger, and a customer deleted meanwhile by
// the foreign key; the second read then answers with the documented error, so one retry
// settles it.
const MAX_ATTEMPTS = 3;

/** Errors raised inside the batch when a concurrent write changed what the read saw. */
function lostRace(err: unknown): boolean {
  return (
    isUniqueViolation(err, "invoices.") ||
    isForeignKeyViolation(err) ||
    isRaised(err, "series_mismatch") ||
    isRaised(err, "invoice_prefix_changed") ||
    isRaised(err, "issue_date_out_of_order") ||
    isRaised(err, "corrected_not_issued")
  );
}

/**
 * The largest invoice stored (as JSON; the row and its `invoice.issued` event each hold about one
 * copy, a stored Idempotency-Key response a third): what the largest legitimate invoices need,
 * as test/integration/api/storage-budget.test.ts and invoices/validation.test.ts measure them.
 * 200 lines with every field at its maximum length: 588,090 bytes in ASCII, 610,586 in Spanish
 * prose; 200 lines of 10 distinct taxes each (2,000 breakdown rows, the most an invoice can
 * have): 765,371. Larger is a 400, never stored (issue 30, item 1).
 */
export const MAX_INVOICE_BYTES = 800_000;
const utf8 = new TextEncoder();

export function refuseOversized(invoice: Invoice): void {
  const json = JSON.stringify(invoice);
  // A UTF-16 unit is at most 3 UTF-8 bytes: the usual invoice is never encoded to be measured.
  if (json.length * 3 <= MAX_INVOICE_BYTES) return;
  const bytes = utf8.encode(json).byteLength;
  if (bytes > MAX_INVOICE_BYTES) {
    throw new ApiError(
      "parameter_invalid",
      `The invoice is too large to store: ${bytes} bytes as JSON, at most ${MAX_INVOICE_BYTES}; use fewer or shorter lines and taxes.`,
      { param: "lines" },
    );
  }
}

/**
 * A finalize's first statements: the draft's row goes, and its id takes the issued invoice.
 * The guard fails the whole batch unless the row is still a draft (its NOT NULL name is set to
 * NULL otherwise, as the idempotency guard does): a draft deleted or finalized meanwhile must
 * not be issued (again).
 */
function replaceDraft(db: Database, caller: Caller, id: string) {
  const isDraft = and(eq(invoices.id, id), eq(invoices.status, "draft"));
  return {
    guard: db
      .update(accounts)
      .set({
        name: sql`CASE WHEN EXISTS (SELECT 1 FROM ${invoices} WHERE ${isDraft}) THEN ${accounts.name} END`,
      })
      .where(eq(accounts.id, caller.accountId)),
    replace: db.delete(invoices).where(isDraft),
  };
}

/** The issuance request a body makes, its defaults applied. */
export function issueRequestOf(body: CreateInvoiceBody): IssueRequest {
  const type = body.type ?? "ordinary";
  return {
    type,
    series: body.series ?? DEFAULT_SERIES[type],
    numbering: body.numbering ?? "series",
    customer: body.customer,
    issueDate: body.issue_date,
    operationDate: body.operation_date ?? null,
    currency: body.currency ?? "EUR",
    lines: body.lines,
    dueDate: body.payment_terms?.due_date ?? null,
    options: body.payment_terms?.options,
    corrects: body.corrects,
    notes: body.notes ?? null,
  };
}

/**
 * Issues an invoice: the one issuance path, for `POST /v1/invoices` and for finalizing a draft
 * (`replacing`: the draft's id, which the issued invoice keeps; its row is deleted in the same
 * batch, and only while it is still a draft, so two finalizes issue it once).
 */
export async function issueInvoice(
  w: Writer,
  caller: Caller,
  body: CreateInvoiceBody,
  replacing?: string,
): Promise<Invoice> {
  const { db } = w;
  const req = issueRequestOf(body);

  for (let attempt = 1; ; attempt++) {
    const ctx = await loadContextFor(db, caller, req);
    const built = buildInvoice(caller, req, ctx, { draft: false, id: replacing });
    const es = ctx.account.taxRegime === "es";
    // The event's copy takes the number and the record's time from the database, like the row.
    const { row, pending, record } = es
      ? withRecord(db, w.env, built, caller, ctx.corrected)
      : { row: built, pending: pendingCopy(built), record: undefined };
    refuseOversized(pending);
    // After every 400, before anything is written: a Live record that cannot be sent is refused.
    if (es) refuseUnready(w.env, ctx.profile, caller.live);
    // The usage debit names this event, so its id is known before the batch.
    const issuedId = newId("event");
    const debit = usageDebit(db, caller, {
      priceCents: config(w.env).usagePriceInvoice,
      sourceEvent: issuedId,
      invoiceId: row.id,
      createdAt: row.createdAt,
    });
    const events: EventSpec[] = [
      {
        id: issuedId,
        type: "invoice.issued",
        object: pending,
        fill: issuedPaths(pending, row, record?.generatedAt),
      },
    ];
    if (ctx.corrected) {
      // The corrected invoice gains this one in `corrected_by`: its only change, ever. The
      // event's list is read inside the batch, not from the read above, so concurrent
      // correctives of one invoice each show those committed before them.
      const { id, correctedBy } = ctx.corrected;
      const amended = serializeInvoice({ ...ctx.corrected, correctedBy: [...correctedBy, row.id] });
      const listNow = sql`(SELECT ${invoices.correctedBy} FROM ${invoices} WHERE ${invoices.id} = ${id})`;
      events.push({
        type: "invoice.amended",
        object: amended,
        fill: { "$.corrected_by": sql`json_insert(${listNow}, '$[#]', ${row.id})` },
      });
    }
    events.push(debit.event);
    try {
      const { results } = await writeWithEvents(
        w,
        {
          ...(replacing && replaceDraft(db, caller, replacing)),
          insert: db.insert(invoices).values(row).returning({
            counter: invoices.counter,
            number: invoices.number,
          }),
          ...(record && { record: record.insert, summary: record.summarize.returning(SERVED_COLUMNS) }),
          ...(ctx.corrected && {
            amend: db
              .update(invoices)
              .set({ correctedBy: sql`json_insert(${invoices.correctedBy}, '$[#]', ${row.id})` })
              .where(eq(invoices.id, ctx.corrected.id)),
          }),
          debit: debit.statement,
        },
        ...events,
      );
      const [numbered] = results.insert;
      if (!numbered) throw new Error("The invoice INSERT returned no row.");
      w.waitUntil(requestPdf(w.env, row.id));
      if (!record) return serializeInvoice({ ...row, ...numbered });
      w.waitUntil(requestSubmission(w.env, caller));
      const [registered] = results.summary as ServedInvoiceRow[];
      if (!registered) throw new Error("The invoice's record summary returned no row.");
      return serializeInvoice(registered);
    } catch (err) {
      // The draft was finalized or deleted since it was read: the read again answers.
      if (replacing && isNotNullViolation(err, "accounts.name")) {
        await findDraft(db, caller, replacing);
        throw err;
      }
      if (!lostRace(err)) throw err;
      if (attempt === MAX_ATTEMPTS) {
        throw new ApiError("api_error", "Too many concurrent issues in this series; retry the request.");
      }
    }
  }
}
