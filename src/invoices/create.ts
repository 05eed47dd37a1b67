import type { Caller } from "../contracts/caller";
import type { Writer } from "../events/write";
import { createDraft } from "./draft-create";
import { issueInvoice } from "./issue";
import type { CreateInvoiceBody, Invoice } from "./schemas";

/** `POST /v1/invoices`: a draft with `"draft": true`, else an issued invoice. */
export function createInvoice(w: Writer, caller: Caller, body: CreateInvoiceBody): Promise<Invoice> {
  const { draft, ...request } = body;
  return draft ? createDraft(w, caller, request) : issueInvoice(w, caller, request);
}
