import { and, eq, sql } from "drizzle-orm";
import { isAnulacion, type StoredRecord } from "../contracts/verifactu-record";
import { createDb } from "../db/client";
import { invoices, type ServedInvoiceRow, verifactuRecords } from "../db/schema";
import { pdfKey } from "../invoices/pdf/generate";
import { serializeInvoice } from "../invoices/serialize";
import { nowIso } from "../lib/clock";
import { clip } from "../verifactu/format";
import { sealThrough } from "../verifactu/seal";
import { registrationXml } from "../verifactu/xml";
import { type ArchivedInvoice, archiveFolder, recordName, stateName } from "./keys";

/**
 * Writes `key` unless it exists: the archive is append-only, so the first copy of an object is
 * the one kept (R2 refuses the put, and returns null, when `etagDoesNotMatch: "*"` fails).
 */
async function putOnce(
  bucket: R2Bucket,
  key: string,
  body: string | ReadableStream | ArrayBuffer,
  type: string,
) {
  await bucket.put(key, body, { onlyIf: { etagDoesNotMatch: "*" }, httpMetadata: { contentType: type } });
}

/** The XML of a record as the API serves it (src/invoices/verifactu-record.ts). */
function recordXml(record: StoredRecord, issuerName: string): string {
  return registrationXml(record as never, isAnulacion(record) ? clip(issuerName, 120) : undefined);
}

const rawRow = (env: Env, table: "invoices" | "verifactu_records", column: string, id: string) =>
  env.DB.prepare(`SELECT * FROM ${table} WHERE ${column} = ? ORDER BY rowid`)
    .bind(id)
    .all<Record<string, unknown>>();

/**
 * Archives invoice `id` as it stands on `env`'s shard: its JSON (the API object and its rows),
 * its stored PDF and the XML of each of its VERI*FACTU records, each written once. Then marks
 * it archived (`archived_at`) if it is still in the state archived. The JSON goes last, once
 * the state's PDF and records are there (it lists them). Returns whether it is archived; false
 * when its PDF is not stored yet, a cancellation waits for AEAT's answer (its
 * `SinRegistroPrevio` is settled by its sending), or it changed meanwhile: the sweep comes back.
 */
export async function archiveInvoice(env: Env, id: string): Promise<boolean> {
  const db = createDb(env.DB);
  const read = async () => (await db.select().from(invoices).where(eq(invoices.id, id)).limit(1))[0];
  const found = await read();
  if (!found || found.status === "draft" || found.pdfGeneratedAt === null) return false;
  const scope = { accountId: found.accountId, live: found.live };
  const r = verifactuRecords;
  // Written moments ago and not sealed yet: sealed now, as the XML endpoint does (deterministic).
  let records = await db.select().from(r).where(eq(r.invoiceId, id)).orderBy(r.position);
  const last = records.filter((rec) => rec.hash === null).at(-1);
  if (last) {
    await sealThrough(db, scope, { nif: last.issuerNif, seq: last.seq });
    records = await db.select().from(r).where(eq(r.invoiceId, id)).orderBy(r.position);
  }
  // Read again: sealing writes the records' hashes into the invoice's summary.
  const row: ServedInvoiceRow | undefined = last ? await read() : found;
  if (!row || row.status !== found.status || row.pdfGeneratedAt === null) return false;

  const folder = archiveFolder(row);
  const state = stateName(row.status);
  const pdf = await env.PDFS.get(pdfKey(row));
  if (!pdf) return false;
  await putOnce(env.ARCHIVE, `${folder}${state}.pdf`, await pdf.arrayBuffer(), "application/pdf");
  const ready = records.filter(
    (rec) => rec.hash !== null && !(isAnulacion(rec.record) && rec.status === "pending"),
  );
  for (const rec of ready) {
    await putOnce(
      env.ARCHIVE,
      folder + recordName(rec.id),
      recordXml(rec.record, row.issuer.name),
      "application/xml",
    );
  }
  // The JSON last, once the state's other objects are there: it lists them.
  if (ready.length < records.length) return false;
  const [stored, storedRecords] = await Promise.all([
    rawRow(env, "invoices", "id", id),
    rawRow(env, "verifactu_records", "invoice_id", id),
  ]);
  const doc: ArchivedInvoice = {
    archived_at: nowIso(),
    invoice: serializeInvoice(row),
    rows: { invoice: stored.results[0] ?? {}, verifactu_records: storedRecords.results },
    objects: [`${state}.pdf`, ...ready.map((rec) => recordName(rec.id))],
  };
  await putOnce(env.ARCHIVE, `${folder}${state}.json`, JSON.stringify(doc, null, 2), "application/json");

  // Only if nothing moved since the read: a void or a new record clears `archived_at` anyway.
  const [marked] = await db
    .update(invoices)
    .set({ archivedAt: doc.archived_at })
    .where(
      and(
        eq(invoices.id, id),
        eq(invoices.status, row.status),
        sql`json_array_length(coalesce(${invoices.verifactuRecords}, '[]')) = ${records.length}`,
      ),
    )
    .returning({ id: invoices.id });
  return marked !== undefined;
}
