import { eq, sql } from "drizzle-orm";
import { invoices } from "../../db/schema";
import type { EventSpec } from "../../events/write";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { buildInvoice, type IssueRequest } from "../../invoices/build";
import { loadIssueContext } from "../../invoices/context";
import { DEFAULT_SERIES } from "../../invoices/numbering";
import { isRaised, isUniqueViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import { route } from "../../lib/route";
import { createInvoiceBody, invoiceObject } from "./schemas";
import { serializeInvoice } from "./serialize";

// Each lost race costs one more read and write; 20 concurrent issues in one series need up to 20.
const MAX_ATTEMPTS = 50;

/** Errors raised inside the batch when another issuance got there first: read again and retry. */
function lostRace(err: unknown): boolean {
  return (
    isUniqueViolation(err, "invoices.") ||
    isRaised(err, "series_mismatch") ||
    isRaised(err, "invoice_prefix_changed")
  );
}

export const createInvoice = route({
  method: "post",
  path: "/v1/invoices",
  tag: "Invoices",
  summary: "Issue an invoice",
  request: { json: createInvoiceBody },
  responses: { 201: { description: "The issued invoice.", schema: invoiceObject } },
  handler: async (c, { json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const type = body.type ?? "ordinary";
    const req: IssueRequest = {
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

    for (let attempt = 1; ; attempt++) {
      const ctx = await loadIssueContext(db, caller, {
        customerId: req.customer ?? null,
        correctedId: req.corrects?.invoice ?? null,
        optionIds: req.options ?? [],
        series: req.series,
        numbering: req.numbering,
      });
      const row = buildInvoice(caller, req, ctx);
      const invoice = serializeInvoice(row);
      const events: EventSpec[] = [{ type: "invoice.issued", object: invoice }];
      if (ctx.corrected) {
        // The corrected invoice gains this one in `corrected_by`: its only change, ever.
        const amended = serializeInvoice({
          ...ctx.corrected,
          correctedBy: [...ctx.corrected.correctedBy, row.id],
        });
        events.push({ type: "invoice.amended", object: amended });
      }
      try {
        await writeWithEvents(
          writerOf(c),
          {
            insert: db.insert(invoices).values(row),
            ...(ctx.corrected && {
              amend: db
                .update(invoices)
                .set({ correctedBy: sql`json_insert(${invoices.correctedBy}, '$[#]', ${row.id})` })
                .where(eq(invoices.id, ctx.corrected.id)),
            }),
          },
          ...events,
        );
        return c.json(invoice, 201);
      } catch (err) {
        if (!lostRace(err)) throw err;
        if (attempt === MAX_ATTEMPTS) {
          throw new ApiError("api_error", "Too many concurrent issues in this series; retry the request.");
        }
      }
    }
  },
});
