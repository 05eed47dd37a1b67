import type { Caller } from "../contracts/caller";
import { invoices } from "../db/schema";
import { type Writer, writeWithEvents } from "../events/write";
import { newId } from "../lib/ids";
import { type DraftRequest, previewDraft } from "./draft";
import type { Invoice } from "./schemas";

/**
 * A draft (lifecycle.md): a preview that consumes no number and writes no VERI*FACTU record,
 * debit or PDF. Its request is kept as sent, so finalizing issues exactly it.
 */
export async function createDraft(w: Writer, caller: Caller, request: DraftRequest): Promise<Invoice> {
  const { row, draft } = await previewDraft(w.db, caller, newId("invoice"), request);
  await writeWithEvents(
    w,
    { insert: w.db.insert(invoices).values(row) },
    { type: "invoice.created", object: draft },
  );
  return draft;
}
