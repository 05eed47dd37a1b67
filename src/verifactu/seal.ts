import { and, eq, isNull, sql } from "drizzle-orm";
import type { RecordBody, RegistroAlta } from "../contracts/verifactu-record";
import type { Database } from "../db/client";
import { invoices } from "../db/schema";
import type { Scope } from "../events/write";
import { sealRecord } from "./record";

/** Records sealed per call: one UPDATE each, within D1's per-invocation query budget. */
export const SEAL_BATCH = 200;

const inScope = (s: Scope) => and(eq(invoices.accountId, s.accountId), eq(invoices.live, s.live));

/**
 * Hashes the chain's unsealed records in chain order, each over its predecessor's `Huella`
 * (at most SEAL_BATCH; `upTo` stops at a place). The issuing INSERT fixed each record's body,
 * place and time, so sealing is deterministic: two sealers at once compute the same hashes,
 * and the `verifactu_hash IS NULL` guard lets the first write win. Returns how many it sealed.
 */
export async function sealChain(db: Database, scope: Scope, upTo?: number): Promise<number> {
  const rows = await db
    .select({
      id: invoices.id,
      seq: invoices.verifactuSeq,
      generatedAt: invoices.verifactuGeneratedAt,
      record: invoices.verifactuRecord,
    })
    .from(invoices)
    // Unsealed records are pending (none is sent before it is sealed): the pending index.
    .where(and(inScope(scope), sql`${invoices.verifactuStatus} = 'pending'`, isNull(invoices.verifactuHash)))
    .orderBy(invoices.verifactuSeq)
    .limit(SEAL_BATCH);
  const first = rows[0];
  if (!first?.seq) return 0;

  const [before] = await db
    .select({ record: invoices.verifactuRecord, hash: invoices.verifactuHash })
    .from(invoices)
    .where(and(inScope(scope), eq(invoices.verifactuSeq, first.seq - 1)));
  if (before && !before.hash) throw new Error(`VERI*FACTU chain: record ${first.seq - 1} is not sealed`);
  let previous = before?.hash
    ? { IDFactura: (before.record as RegistroAlta).IDFactura, Huella: before.hash }
    : null;

  const updates = [];
  for (const [i, row] of rows.entries()) {
    // Places are consecutive; stop at a gap or past `upTo` rather than link across it.
    if (row.seq !== first.seq + i || (upTo !== undefined && row.seq > upTo)) break;
    const record = await sealRecord(row.record as RecordBody, {
      previous,
      generatedAt: row.generatedAt ?? 0,
    });
    updates.push(
      db
        .update(invoices)
        .set({
          verifactuRecord: record,
          verifactuHash: record.Huella,
          verifactuPreviousHash: previous?.Huella ?? null,
        })
        .where(and(eq(invoices.id, row.id), isNull(invoices.verifactuHash))),
    );
    previous = { IDFactura: record.IDFactura, Huella: record.Huella };
  }
  const [head, ...tail] = updates;
  if (head) await db.batch([head, ...tail]);
  return updates.length;
}

/** Seals the chain up to and including place `seq`, however many records come before it. */
export async function sealThrough(db: Database, scope: Scope, seq: number): Promise<void> {
  while ((await sealChain(db, scope, seq)) === SEAL_BATCH) {}
}
