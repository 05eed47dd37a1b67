import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { type ChainRecord, isAnulacion } from "../contracts/verifactu-record";
import { counted, type Database } from "../db/client";
import { verifactuRecords } from "../db/schema";
import { ApiError, notFound } from "../http/errors";
import { clip } from "../verifactu/format";
import { sealThrough } from "../verifactu/seal";
import { findInvoice } from "./find";

/**
 * One VERI*FACTU record of invoice `id` as the AEAT XML document it is sent in: `recordId`, or
 * by default the latest registration or subsanación.
 */
export async function verifactuRecordXml(
  db: Database,
  env: Env,
  caller: Caller,
  id: string,
  recordId?: string,
): Promise<string> {
  const invoice = await findInvoice(db, caller, id);
  const summaries = invoice.verifactuRecords ?? [];
  const summary = recordId
    ? summaries.find((s) => s.id === recordId)
    : summaries.findLast((s) => s.kind !== "cancellation");
  if (!summary) {
    if (recordId) throw notFound("verifactu_record", recordId);
    throw new ApiError(
      "resource_missing",
      `Invoice '${id}' has no VERI*FACTU record: only issued invoices of es accounts are registered.`,
      { param: "id" },
    );
  }
  const r = verifactuRecords;
  const read = () =>
    counted(
      db,
      db
        .select()
        .from(r)
        .where(and(eq(r.id, summary.id), eq(r.invoiceId, invoice.id)))
        .limit(1),
    );
  let [row] = await read();
  if (!row) throw notFound("verifactu_record", summary.id);
  // Written moments ago and not sealed yet: seal its chain up to it now (deterministic, so
  // the consumer computes the same record).
  if (row.hash === null) {
    await sealThrough(db, caller, { nif: row.issuerNif, seq: row.seq });
    [row] = await read();
  }
  const record = row?.record as ChainRecord;
  // A cancellation names no issuer name: the request's Cabecera takes the invoice's. The XML
  // is written by the renderer Worker (verifactu/xml.ts), which the API Worker's bundle budget
  // leaves out.
  const res = await env.PDF_RENDERER.fetch("https://pdf-renderer/verifactu-xml", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ record, name: isAnulacion(record) ? clip(invoice.issuer.name, 120) : undefined }),
  });
  if (!res.ok) throw new Error(`the renderer answered ${res.status}`);
  return res.text();
}
