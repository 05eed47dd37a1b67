import type { Caller } from "../contracts/caller";
import type { Writer } from "../events/write";
import type { DraftRequest } from "./draft";
import { findDraft } from "./find";
import { issueInvoice } from "./issue";
import type { Invoice } from "./schemas";

/**
 * Issues draft `id` through the one issuance path, as `POST /v1/invoices` would issue its
 * request now: snapshots taken now, the number assigned, `issue_date` today when the draft has
 * none, every rule checked, and every side effect (`invoice.issued`, the debit, the VERI*FACTU
 * record, the PDF). A refused finalize writes nothing: the draft stays as it was.
 */
export async function finalizeDraft(w: Writer, caller: Caller, id: string): Promise<Invoice> {
  const draft = await findDraft(w.db, caller, id);
  return issueInvoice(w, caller, draft.draftRequest as DraftRequest, id);
}
