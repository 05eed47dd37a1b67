import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { buildInvoice, type InvoiceInsert } from "./build";
import { loadContextFor } from "./context";
import { issueRequestOf, refuseOversized } from "./issue";
import type { CreateInvoiceBody, Invoice } from "./schemas";
import { serializeInvoice } from "./serialize";

/** A draft's request: the body of `POST /v1/invoices` as stored, without `draft`. */
export type DraftRequest = Omit<CreateInvoiceBody, "draft">;

/**
 * A draft's row for `request`, and the draft as the API shows it: shape-checked, its references
 * resolved and its taxes computed exactly as an issuance would, without the issuance-only rules
 * (src/invoices/build.ts). Throws the documented 400; nothing is written.
 */
export async function previewDraft(
  db: Database,
  caller: Caller,
  id: string,
  request: DraftRequest,
): Promise<{ row: InvoiceInsert; draft: Invoice }> {
  const req = issueRequestOf(request);
  const ctx = await loadContextFor(db, caller, req);
  const row = buildInvoice(caller, req, ctx, { draft: true, id, request });
  const draft = serializeInvoice({
    ...row,
    counter: 0,
    number: "",
  });
  refuseOversized(draft);
  return { row, draft };
}
