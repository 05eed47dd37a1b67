import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { invoices } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Writer, writeWithEvents } from "../events/write";
import { type DraftRequest, previewDraft } from "./draft";
import { findDraft } from "./find";
import type { Invoice, UpdateInvoiceBody } from "./schemas";

/** The draft's request after `patch`: given fields replace, `null` removes (the default applies). */
function merged(request: DraftRequest, patch: UpdateInvoiceBody): DraftRequest {
  const next: Record<string, unknown> = { ...request };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as DraftRequest;
}

/**
 * Edits draft `id` and recomputes its preview. The UPDATE holds only while the row is a draft,
 * so one finalized or deleted meanwhile is not changed: the read again answers 409 or 404.
 */
export async function updateDraft(
  w: Writer,
  caller: Caller,
  id: string,
  patch: UpdateInvoiceBody,
): Promise<Invoice> {
  const { db } = w;
  const current = await findDraft(db, caller, id);
  const request = merged(current.draftRequest as DraftRequest, patch);
  const { row, draft } = await previewDraft(db, caller, id, request);
  // A draft keeps its id and its creation time; everything else is the new preview.
  const { id: _, createdAt: __, ...changes } = row;
  const shown: Invoice = { ...draft, created_at: current.createdAt };
  const isDraft = and(eq(invoices.id, id), eq(invoices.status, "draft"), ownedBy(invoices, caller));
  const { results } = await writeWithEvents(
    w,
    { updated: db.update(invoices).set(changes).where(isDraft).returning({ id: invoices.id }) },
    {
      type: "invoice.updated",
      object: shown,
      whileExists: [invoices, invoices.id, eq(invoices.status, "draft")],
    },
  );
  if (results.updated.length === 0) await findDraft(db, caller, id);
  return shown;
}
