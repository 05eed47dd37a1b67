import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { invoices } from "../db/schema";
import { ownedBy } from "../db/scope";
import { type Writer, writeWithEvents } from "../events/write";
import { findDraft } from "./find";
import { serializeInvoice } from "./serialize";

/**
 * Deletes draft `id`; `invoice.deleted` shows it as it was. The DELETE holds only while the row
 * is a draft, so a draft finalized meanwhile is not deleted: the read again answers 409.
 */
export async function deleteDraft(w: Writer, caller: Caller, id: string): Promise<void> {
  const { db } = w;
  const current = await findDraft(db, caller, id);
  const isDraft = and(eq(invoices.id, id), eq(invoices.status, "draft"));
  const { results } = await writeWithEvents(
    w,
    {
      deleted: db
        .delete(invoices)
        .where(and(isDraft, ownedBy(invoices, caller)))
        .returning({ id: invoices.id }),
    },
    {
      type: "invoice.deleted",
      object: serializeInvoice(current),
      whileExists: [invoices, invoices.id, eq(invoices.status, "draft")],
    },
  );
  if (results.deleted.length === 0) await findDraft(db, caller, id);
}
