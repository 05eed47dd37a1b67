import { eq, sql } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { RecordBody, RegistroAlta } from "../contracts/verifactu-record";
import { counted } from "../db/client";
import { invoices, type ServedInvoiceRow, verifactuRecords } from "../db/schema";
import type { Writer } from "../events/write";
import { ApiError } from "../http/errors";
import { fencedWrite } from "../http/idempotency";
import { nowMs } from "../lib/clock";
import { newId } from "../lib/ids";
import { addRecord } from "../verifactu/chain";
import { requestSubmission } from "../verifactu/dispatch";
import { softwareFor } from "../verifactu/software";
import { findInvoice, SERVED_COLUMNS } from "./find";
import type { Invoice } from "./schemas";
import { serializeInvoice } from "./serialize";

/** What a resubmission needs of the row, in SQL: issued, its latest registration refused or flawed. */
const RESUBMITTABLE = sql`${invoices.status} = 'issued' AND ${invoices.verifactuStatus} IN ('rejected', 'accepted_with_errors')`;

const notResubmittable = (id: string, why: string) =>
  new ApiError(
    "verifactu_not_resubmittable",
    `Invoice '${id}' ${why}: only a rejected or accepted_with_errors registration can be resubmitted.`,
  );

/**
 * The flags of a subsanación (verifactu-facts.md §9, from AEAT's validation document, annex 6):
 * `Subsanacion` S always; `RechazoPrevio` X when AEAT holds no record of the invoice (every
 * earlier one was rejected: "alta por rechazo"), S when it holds one and the latest subsanación
 * was rejected, absent when correcting the record it holds. X needs Subsanacion S (error 1153).
 */
function flagsFor(row: ServedInvoiceRow): Pick<RegistroAlta, "Subsanacion" | "RechazoPrevio"> {
  const altas = (row.verifactuRecords ?? []).filter((s) => s.kind !== "cancellation");
  const held = altas.some((s) => s.status === "accepted" || s.status === "accepted_with_errors");
  if (!held) return { Subsanacion: "S", RechazoPrevio: "X" };
  return altas.at(-1)?.status === "rejected"
    ? { Subsanacion: "S", RechazoPrevio: "S" }
    : { Subsanacion: "S" };
}

/**
 * Sends an invoice's registration again (verifactu-system.md §1): a new registration record of
 * the same invoice, with the data it was issued with and this system's identity now, chained
 * after its chain's latest record. The record's verdict arrives as the registration's events.
 */
export async function resubmitRecord(w: Writer, caller: Caller, id: string): Promise<Invoice> {
  const row = await findInvoice(w.db, caller, id);
  const latest = (row.verifactuRecords ?? []).findLast((s) => s.kind !== "cancellation");
  if (!latest) throw notResubmittable(id, "has no VERI*FACTU record");
  if (row.status !== "issued") throw notResubmittable(id, `is ${row.status}`);
  if (latest.status !== "rejected" && latest.status !== "accepted_with_errors") {
    throw notResubmittable(id, `has a ${latest.status} registration`);
  }
  const r = verifactuRecords;
  const [source] = await counted(w.db, w.db.select().from(r).where(eq(r.id, latest.id)));
  if (!source) throw new Error(`VERI*FACTU record ${latest.id} of invoice ${id} is missing`);
  const {
    Encadenamiento: _link,
    FechaHoraHusoGenRegistro: _time,
    TipoHuella: _type,
    Huella: _hash,
    Subsanacion: _s,
    RechazoPrevio: _r,
    ...data
  } = source.record as RegistroAlta;
  const body: RecordBody = {
    ...data,
    ...flagsFor(row),
    SistemaInformatico: softwareFor(w.env, caller.live) ?? data.SistemaInformatico,
  };
  const record = addRecord(w.db, {
    id: newId("verifactuRecord"),
    chain: { ...caller, nif: source.issuerNif },
    invoiceId: id,
    kind: "subsanacion",
    body: sql`${JSON.stringify(body)}`,
    now: nowMs(),
    when: RESUBMITTABLE,
  });
  // No event of its own (the record's verdict brings them): the write and its request's
  // idempotency mark only.
  const results = await fencedWrite(w, {
    insert: record.insert,
    summary: record.summarize.returning(SERVED_COLUMNS),
  });
  const [updated] = results.summary as ServedInvoiceRow[];
  // Another resubmission or a void committed between the read and the write.
  if (!updated) throw notResubmittable(id, "changed meanwhile");
  w.waitUntil(requestSubmission(w.env, caller));
  return serializeInvoice(updated);
}
