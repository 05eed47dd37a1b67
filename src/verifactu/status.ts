import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { accountEnvironments, verifactuRecords } from "../db/schema";
import type { Scope } from "../events/write";

const r = verifactuRecords;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The records of an environment that wait to be sent or answered: the pending index. */
export const pendingOf = (s: Scope) =>
  and(eq(r.accountId, s.accountId), eq(r.live, s.live), sql`${r.status} = 'pending'`);

/**
 * An environment's sending state (verifactu-system.md §3, Orden HAC/1177/2024 art. 16.4): how
 * many records wait and since when, whether sending is failing (`incident_since`) and when a
 * record was last accepted. What `GET /v1/verifactu/status` answers and the incident events
 * carry.
 */
export async function verifactuStatus(db: Database, scope: Scope) {
  const e = accountEnvironments;
  const [[pending], [environment]] = await db.batch([
    db
      .select({ count: sql<number>`count(*)`, oldest: sql<number | null>`min(${r.generatedAt})` })
      .from(r)
      .where(pendingOf(scope)),
    db
      .select({ incidentSince: e.verifactuIncidentSince, lastAcceptedAt: e.verifactuLastAcceptedAt })
      .from(e)
      .where(and(eq(e.accountId, scope.accountId), eq(e.live, scope.live))),
  ]);
  return {
    object: "verifactu_status" as const,
    live: scope.live,
    pending: pending?.count ?? 0,
    oldest_pending_at: iso(pending?.oldest ?? null),
    incident_since: iso(environment?.incidentSince ?? null),
    last_accepted_at: iso(environment?.lastAcceptedAt ?? null),
  };
}

export type VerifactuStatus = Awaited<ReturnType<typeof verifactuStatus>>;
