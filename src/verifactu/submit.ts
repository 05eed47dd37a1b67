import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { RegistroAlta } from "../contracts/verifactu-record";
import { accountEnvironments, invoices } from "../db/schema";
import type { Scope, Writer } from "../events/write";
import { nowMs } from "../lib/clock";
import { log } from "../lib/log";
import type { RecordRegistry } from "./registry";
import { sealChain } from "./seal";
import { settleRecords } from "./settle";

/**
 * Records per registry request. AEAT takes 1,000; each record costs a few D1 statements and one
 * invocation may run 1,000 of them, so a request carries fewer.
 */
export const SUBMIT_BATCH = 200;
/** How long one consumer holds a chain: longer than a registry request may take. */
export const LEASE_MS = 60_000;
/** The wait after a registry that did not answer, before the chain is tried again. */
export const UNAVAILABLE_WAIT_S = 60;
/**
 * After AEAT refused a whole request (a 41xx fault: certificate, issuer or header problems),
 * which resending soon would only repeat: an operator has to act (the error is logged).
 */
export const REFUSED_WAIT_S = 3600;

export type ChainResult =
  /** Nothing left to send (or, in Live without a certificate, nowhere to send it). */
  | { kind: "idle" }
  /** Records remain, or the chain is held or waiting: look again after `delaySeconds`. */
  | { kind: "later"; delaySeconds: number };

const environment = (s: Scope) =>
  and(eq(accountEnvironments.accountId, s.accountId), eq(accountEnvironments.live, s.live));
const pendingOf = (s: Scope) =>
  and(
    eq(invoices.accountId, s.accountId),
    eq(invoices.live, s.live),
    sql`${invoices.verifactuStatus} = 'pending'`,
  );

/**
 * One turn on a chain: claim it (one sender per chain, and not before the registry's last
 * `TiempoEsperaEnvio` has passed), seal what is unsealed, send the oldest pending records of one
 * issuer, write the verdicts and their events, release it with the registry's wait. A chain
 * that is claimed or waiting is left alone: its holder looks for pending records after it
 * releases, so nothing is stranded (and the cron sweep catches what a lost message leaves).
 * With no registry (Live without a certificate) the records are sealed and stay pending.
 */
export async function processChain(w: Writer, registry: RecordRegistry | null): Promise<ChainResult> {
  const { db, scope } = w;
  const start = nowMs();
  // The claim and the chain's wait in one round trip: the read after the UPDATE sees the lease
  // just taken, or, when another sender holds the chain, when it is free again.
  const [claimed, [held]] = await db.batch([
    db
      .update(accountEnvironments)
      .set({ verifactuNotBefore: start + LEASE_MS })
      .where(
        and(
          environment(scope),
          or(
            isNull(accountEnvironments.verifactuNotBefore),
            lte(accountEnvironments.verifactuNotBefore, start),
          ),
        ),
      )
      .returning({ live: accountEnvironments.live }),
    db
      .select({ notBefore: accountEnvironments.verifactuNotBefore })
      .from(accountEnvironments)
      .where(environment(scope)),
  ]);
  if (claimed.length === 0) {
    if (!held) return { kind: "idle" };
    return {
      kind: "later",
      delaySeconds: Math.max(1, Math.ceil(((held.notBefore ?? start) - start) / 1000)),
    };
  }

  // The registry's wait, kept as soon as it answers: the release honours it even when
  // recording the verdicts then fails (the records, still pending, go again after it).
  const wait = { seconds: 0 };
  try {
    await sealChain(db, scope);
    if (!registry) return { kind: "idle" };
    await submitOldest(w, registry, wait);
  } finally {
    await db
      .update(accountEnvironments)
      .set({ verifactuNotBefore: nowMs() + wait.seconds * 1000 })
      .where(environment(scope));
  }
  // Looked for after the release, so a record issued meanwhile is seen here or by its own message.
  const [left] = await db.select({ id: invoices.id }).from(invoices).where(pendingOf(scope)).limit(1);
  return left ? { kind: "later", delaySeconds: wait.seconds } : { kind: "idle" };
}

/** Sends the oldest sealed pending records of one issuer; `wait` gets the wait the registry asks. */
async function submitOldest(w: Writer, registry: RecordRegistry, wait: { seconds: number }): Promise<void> {
  const rows = await w.db
    .select()
    .from(invoices)
    .where(and(pendingOf(w.scope), isNotNull(invoices.verifactuHash)))
    .orderBy(invoices.verifactuSeq)
    .limit(SUBMIT_BATCH);
  const records = rows.map((r) => r.verifactuRecord as RegistroAlta);
  const first = records[0];
  if (!first) return;
  // One request speaks for one issuer (its Cabecera): stop where the issuer's NIF changes.
  const nif = first.IDFactura.IDEmisorFactura;
  const end = records.findIndex((r) => r.IDFactura.IDEmisorFactura !== nif);
  const count = end === -1 ? records.length : end;
  const answer = await registry.submit({ name: first.NombreRazonEmisor, nif }, records.slice(0, count));
  if (answer.kind === "unavailable") {
    log("verifactu_registry_unavailable", { account_id: w.scope.accountId, code: answer.reason });
    wait.seconds = /^aeat:soap_fault:41\d\d$/.test(answer.reason) ? REFUSED_WAIT_S : UNAVAILABLE_WAIT_S;
    return;
  }
  wait.seconds = answer.waitSeconds;
  await settleRecords(w, rows.slice(0, count), answer.outcomes);
}
