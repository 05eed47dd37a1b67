import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { config } from "../config";
import type { ChainRecord, RecordSummary } from "../contracts/verifactu-record";
import { isAnulacion } from "../contracts/verifactu-record";
import { accountEnvironments, invoices, type VerifactuRecordRow, verifactuRecords } from "../db/schema";
import type { Scope, Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { nowIso, nowMs } from "../lib/clock";
import { log } from "../lib/log";
import { clip } from "./format";
import { MAX_RECORDS_PER_REQUEST, type RecordRegistry } from "./registry";
import { representativeOf } from "./representation";
import { SEAL_BATCH, sealChain } from "./seal";
import { settleRecords } from "./settle";
import { pendingOf, verifactuStatus } from "./status";

/**
 * Records per request while AEAT's wait has passed: each record costs a few D1 statements and
 * one invocation may run about 1,000 of them. When 1,000 records wait, a request carries 1,000
 * (the only case the flow control lets a request go before the wait, Orden HAC/1177/2024 art.
 * 16.2.c).
 */
export const SUBMIT_BATCH = 200;
/** How long one consumer holds an environment's chains: longer than a registry request may take. */
export const LEASE_MS = 60_000;
/**
 * The wait after a registry that did not answer, before the records go again: at least hourly,
 * as verifactu-system.md §3 asks; seconds under `npm start`, so a sandbox incident is short.
 */
export const UNAVAILABLE_WAIT_S = 60;
const DEVELOPMENT_UNAVAILABLE_WAIT_S = 2;
/**
 * After AEAT refused a whole request (a 41xx fault: certificate, issuer or header problems),
 * which resending soon would only repeat: an operator has to act (the error is logged).
 */
export const REFUSED_WAIT_S = 3600;

export type ChainResult =
  /** Nothing left to send (or, in Live without a certificate, nowhere to send it). */
  | { kind: "idle" }
  /** Records remain, or the chains are held or waiting: look again after `delaySeconds`. */
  | { kind: "later"; delaySeconds: number };

const r = verifactuRecords;
const e = accountEnvironments;
const environment = (s: Scope) => and(eq(e.accountId, s.accountId), eq(e.live, s.live));
/** 1,000 records wait: a request may go before AEAT's wait (not during an incident). */
const full = (s: Scope) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM ${r} WHERE ${pendingOf(s)} LIMIT ${MAX_RECORDS_PER_REQUEST})) >= ${MAX_RECORDS_PER_REQUEST}`;

type Claim = {
  incidentSince: number | null;
  representation: (typeof e.$inferSelect)["verifactuRepresentation"];
};

/**
 * One turn on an environment's chains: claim them (one sender at a time, and not before the
 * registry's last `TiempoEsperaEnvio` has passed unless 1,000 records wait), seal what is
 * unsealed, send the oldest pending records of one chain, write the verdicts and their events,
 * release with the registry's wait. Chains that are claimed or waiting are left alone: their
 * holder looks for pending records after it releases, so nothing is stranded (and the cron
 * sweep catches what a lost message leaves). With no registry (Live without a certificate)
 * the records are sealed and stay pending.
 */
export async function processChain(w: Writer, registry: RecordRegistry | null): Promise<ChainResult> {
  const { db, scope } = w;
  const start = nowMs();
  // The claim and the chains' wait in one round trip: the read after the UPDATE sees the lease
  // just taken, or, when another sender holds it, when it is free again.
  const [claimed, [held]] = await db.batch([
    db
      .update(e)
      .set({ verifactuLeaseUntil: start + LEASE_MS })
      .where(
        and(
          environment(scope),
          or(isNull(e.verifactuLeaseUntil), lte(e.verifactuLeaseUntil, start)),
          or(
            isNull(e.verifactuNotBefore),
            lte(e.verifactuNotBefore, start),
            and(isNull(e.verifactuIncidentSince), full(scope)),
          ),
        ),
      )
      .returning({ incidentSince: e.verifactuIncidentSince, representation: e.verifactuRepresentation }),
    db
      .select({ lease: e.verifactuLeaseUntil, notBefore: e.verifactuNotBefore })
      .from(e)
      .where(environment(scope)),
  ]);
  const claim = claimed[0];
  if (!claim) {
    if (!held) return { kind: "idle" };
    const until = Math.max(held.lease ?? start, held.notBefore ?? start);
    return { kind: "later", delaySeconds: Math.max(1, Math.ceil((until - start) / 1000)) };
  }

  // The registry's wait, kept as soon as it answers: the release honours it even when
  // recording the verdicts then fails (the records, still pending, go again after it).
  const turn = { sent: false, wait: 0 };
  try {
    // Sealed in SEAL_BATCH steps up to a full request's worth, so 1,000 waiting records go as one.
    for (let sealed = 0; sealed < MAX_RECORDS_PER_REQUEST; ) {
      const step = await sealChain(db, scope);
      sealed += step;
      if (step < SEAL_BATCH) break;
    }
    if (!registry) return { kind: "idle" };
    await submitOldest(w, registry, claim, turn);
  } finally {
    await db
      .update(e)
      .set({
        verifactuLeaseUntil: null,
        ...(turn.sent && { verifactuNotBefore: nowMs() + turn.wait * 1000 }),
      })
      .where(environment(scope));
  }
  // Looked for after the release, so a record written meanwhile is seen here or by its own message.
  const [left] = await db
    .select({
      full: sql<number>`${full(scope)}`,
      any: sql<number>`EXISTS (SELECT 1 FROM ${r} WHERE ${pendingOf(scope)})`,
    })
    .from(e)
    .where(environment(scope));
  if (!left?.any) return { kind: "idle" };
  return { kind: "later", delaySeconds: left.full && turn.wait > 0 ? 0 : turn.wait };
}

/**
 * The next request: the oldest sealed pending records, in generation order, while they are of
 * one chain (one issuer per request, its `Cabecera`), of one incident state (`Incidencia` is
 * the request's), and of distinct invoices (AEAT's answer names a record by its invoice).
 */
function nextRequest(rows: readonly VerifactuRecordRow[], size: number): VerifactuRecordRow[] {
  const [first] = rows;
  if (!first) return [];
  const invoicesSeen = new Set<string>();
  const out: VerifactuRecordRow[] = [];
  for (const row of rows) {
    if (out.length === size || row.issuerNif !== first.issuerNif || row.incident !== first.incident) break;
    if (invoicesSeen.has(row.invoiceId)) break;
    invoicesSeen.add(row.invoiceId);
    out.push(row);
  }
  return out;
}

/** Whether AEAT holds a registration of the invoice: one of its altas was accepted. */
const registered = (summaries: readonly RecordSummary[] | null) =>
  (summaries ?? []).some(
    (s) => s.kind !== "cancellation" && (s.status === "accepted" || s.status === "accepted_with_errors"),
  );

async function submitOldest(
  w: Writer,
  registry: RecordRegistry,
  claim: Claim,
  turn: { sent: boolean; wait: number },
): Promise<void> {
  const { db, scope } = w;
  const rows = await db
    .select()
    .from(r)
    .where(and(pendingOf(scope), isNotNull(r.hash)))
    .orderBy(r.generatedAt, r.seq)
    .limit(MAX_RECORDS_PER_REQUEST);
  const batch = nextRequest(
    rows,
    rows.length === MAX_RECORDS_PER_REQUEST ? MAX_RECORDS_PER_REQUEST : SUBMIT_BATCH,
  );
  const first = batch[0];
  if (!first) return;
  const ids = JSON.stringify(batch.map((row) => row.id));
  const owners = await db
    .select()
    .from(invoices)
    .where(
      sql`${invoices.id} IN (SELECT value FROM json_each(${JSON.stringify(batch.map((row) => row.invoiceId))}))`,
    );
  const ownerOf = new Map(owners.map((o) => [o.id, o]));

  // A cancellation of an invoice AEAT holds no registration of says so (`SinRegistroPrevio`,
  // verifactu-facts.md §9: "cancelling an invoice AEAT never received"). Known only now: the
  // registration went before it, and its verdict is in.
  const records: ChainRecord[] = batch.map((row) => {
    const record = row.record as ChainRecord;
    if (!isAnulacion(record)) return record;
    const { SinRegistroPrevio: _, ...rest } = record;
    return registered(ownerOf.get(row.invoiceId)?.verifactuRecords ?? null)
      ? rest
      : { ...rest, SinRegistroPrevio: "S" };
  });
  const [tried] = await db.batch([
    db
      .update(r)
      .set({ attempts: sql`${r.attempts} + 1` })
      .where(sql`${r.id} IN (SELECT value FROM json_each(${ids}))`)
      .returning({ attempts: r.attempts }),
    ...batch.flatMap((row, i) =>
      isAnulacion(row.record) ? [db.update(r).set({ record: records[i] }).where(eq(r.id, row.id))] : [],
    ),
  ]);
  const attempt = Math.max(1, ...tried.map((t) => t.attempts));
  const owner = ownerOf.get(first.invoiceId);
  const issuer = {
    name: clip(owner?.issuer.name ?? "", 120),
    nif: first.issuerNif,
    representative: scope.live ? representativeOf(w.env, claim.representation ?? null) : null,
    incident: first.incident,
  };
  const submittedAt = nowIso();
  const answer = await registry.submit(issuer, records, attempt);
  turn.sent = true;
  if (answer.kind === "unavailable") {
    log("verifactu_registry_unavailable", { account_id: scope.accountId, code: answer.reason });
    const development = config(w.env).development;
    turn.wait = /^aeat:soap_fault:41\d\d$/.test(answer.reason)
      ? REFUSED_WAIT_S
      : development
        ? DEVELOPMENT_UNAVAILABLE_WAIT_S
        : UNAVAILABLE_WAIT_S;
    if (claim.incidentSince === null) await incident(w, "opened", nowMs());
    return;
  }
  turn.wait = answer.waitSeconds;
  if (claim.incidentSince !== null) await incident(w, "closed", null);
  await settleRecords(w, batch, ownerOf, answer, submittedAt);
}

/**
 * Opens or closes the environment's incident with its event (verifactu-system.md §3). The
 * lease makes this consumer the environment's only sender, so the state it read is current.
 */
async function incident(w: Writer, change: "opened" | "closed", since: number | null): Promise<void> {
  const status = await verifactuStatus(w.db, w.scope);
  const object = { ...status, incident_since: since === null ? null : new Date(since).toISOString() };
  await writeWithEvents(
    w,
    { set: w.db.update(e).set({ verifactuIncidentSince: since }).where(environment(w.scope)) },
    { type: `verifactu.incident.${change}`, object, related: { id: w.scope.accountId, object: "account" } },
  );
}
