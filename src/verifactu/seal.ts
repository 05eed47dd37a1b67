import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import {
  type AnulacionBody,
  type ChainRecord,
  type IdFactura,
  isAnulacion,
  type RecordBody,
  recordId,
} from "../contracts/verifactu-record";
import { counted, type Database } from "../db/client";
import { verifactuRecords } from "../db/schema";
import type { Scope } from "../events/write";
import { updateSummary } from "./chain";
import { sealCancellation, sealRecord } from "./record";

/** Records sealed per call: two UPDATEs each, within D1's per-invocation query budget. */
export const SEAL_BATCH = 200;

const r = verifactuRecords;
type Link = { IDFactura: IdFactura; Huella: string };
const inScope = (s: Scope) => and(eq(r.accountId, s.accountId), eq(r.live, s.live));

/**
 * Hashes an environment's unsealed records, each chain in its order and each record over its
 * predecessor's `Huella` (at most SEAL_BATCH; `upTo` stops at a record). The INSERT fixed
 * each record's body, place and time, so sealing is deterministic: two sealers at once compute
 * the same hashes, and the `hash IS NULL` guard lets the first write win. Returns how many it
 * sealed.
 */
export async function sealChain(
  db: Database,
  scope: Scope,
  upTo?: { nif: string; seq: number },
): Promise<number> {
  const rows = await counted(
    db,
    db
      .select()
      .from(r)
      // Unsealed records are pending (none is sent before it is sealed): the pending index.
      .where(
        and(
          inScope(scope),
          sql`${r.status} = 'pending'`,
          isNull(r.hash),
          upTo && and(eq(r.issuerNif, upTo.nif), lte(r.seq, upTo.seq)),
        ),
      )
      .orderBy(asc(r.issuerNif), asc(r.seq))
      .limit(SEAL_BATCH),
  );
  const updates = [];
  let previous = null as Link | null;
  let at = null as { nif: string; seq: number } | null;
  for (const row of rows) {
    if (at?.nif !== row.issuerNif || at.seq + 1 !== row.seq) {
      // A chain's first unsealed record: link it to the sealed one before it.
      const [before] = await counted(
        db,
        db
          .select({ record: r.record, hash: r.hash })
          .from(r)
          .where(and(inScope(scope), eq(r.issuerNif, row.issuerNif), eq(r.seq, row.seq - 1))),
      );
      if (before && !before.hash) continue; // a gap in this batch: the next call seals it
      previous = before?.hash ? { IDFactura: recordId(before.record), Huella: before.hash } : null;
    }
    const sealed = await seal(row.record as RecordBody | AnulacionBody, previous, row.generatedAt);
    const previousHash = previous?.Huella ?? null;
    updates.push(
      db
        .update(r)
        .set({ record: sealed, hash: sealed.Huella })
        .where(and(eq(r.id, row.id), isNull(r.hash))),
      updateSummary(
        db,
        row.invoiceId,
        row.position,
        { hash: sealed.Huella, previous_hash: previousHash },
        row.kind,
      ),
    );
    previous = { IDFactura: recordId(sealed), Huella: sealed.Huella };
    at = { nif: row.issuerNif, seq: row.seq };
  }
  const [head, ...tail] = updates;
  if (head) await db.batch([head, ...tail]);
  return updates.length / 2;
}

function seal(
  body: RecordBody | AnulacionBody,
  previous: Link | null,
  generatedAt: number,
): Promise<ChainRecord> {
  return isAnulacion(body)
    ? sealCancellation(body, { previous, generatedAt })
    : sealRecord(body, { previous, generatedAt });
}

/** Seals the environment's records up to and including `upTo`, however many come before it. */
export async function sealThrough(
  db: Database,
  scope: Scope,
  upTo: { nif: string; seq: number },
): Promise<void> {
  while ((await sealChain(db, scope, upTo)) === SEAL_BATCH) {}
}
