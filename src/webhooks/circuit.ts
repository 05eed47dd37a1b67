import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { type EventDestinationRow, eventDestinations } from "../db/schema";
import { DELIVERY_TIMEOUT_MS } from "./config";

/**
 * Fair delivery: one account's receivers that hang or fail must not hold the consumers that
 * every account's deliveries share (10 invocations of 6 connections each, 10 s per timeout).
 *
 * - **Circuit breaker per destination.** A failed attempt opens its destination's circuit for
 *   as long as it has been failing (30 s to 10 minutes): its messages are rescheduled to
 *   when it closes, without an attempt. Then one attempt (a probe) claims the destination's
 *   lease, so only one is in flight while it fails; a success closes the circuit.
 * - **A cap on one account's attempts in flight.** An account with an open circuit is
 *   suspect: every attempt of its environment claims a lease first, and at most
 *   `ACCOUNT_LEASES` of its destinations hold one, all consumers together. Within one consumer
 *   invocation an account holds at most half of its connections (`fairSlots`, src/lib/connections.ts).
 *
 * Healthy accounts pay nothing: no claim, no extra write.
 */
export const CIRCUIT_MIN_MS = 30_000;
export const CIRCUIT_MAX_MS = 600_000;
/** How long a claimed attempt holds its destination: the receiver's timeout and a margin. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** Leases one suspect account (and environment) may hold at once, all consumers together. */
export const ACCOUNT_LEASES = 4;

type Gate = { kind: "free" } | { kind: "claim" } | { kind: "open"; until: number };

/** Whether the circuit is open at `now`. */
export function circuitOpen(d: Pick<EventDestinationRow, "circuitUntil">, now: number): boolean {
  return d.circuitUntil !== null && Date.parse(d.circuitUntil) > now;
}

/**
 * What an attempt to `d` needs: nothing, a lease (it has been failing, or its account is
 * `suspect`), or to wait until its circuit closes.
 */
export function gate(d: EventDestinationRow, suspect: boolean, now: number): Gate {
  if (circuitOpen(d, now)) return { kind: "open", until: Date.parse(d.circuitUntil as string) };
  return d.failingSince !== null || suspect ? { kind: "claim" } : { kind: "free" };
}

/** How long a failed attempt opens the circuit: as long as the destination has been failing, bounded. */
export function circuitWindowMs(failingSince: string | null, now: number): number {
  const failing = failingSince === null ? 0 : now - Date.parse(failingSince);
  return Math.min(Math.max(failing, CIRCUIT_MIN_MS), CIRCUIT_MAX_MS);
}

/**
 * Claims `d`'s lease for one attempt: refused while another attempt holds it, while its
 * circuit is open, or while its account already holds `ACCOUNT_LEASES`. Statements of one
 * batch run in order, so each claim counts the ones before it.
 */
export function claimLease(db: Database, d: EventDestinationRow, now: number) {
  const e = eventDestinations;
  const at = new Date(now).toISOString();
  const held = sql`(SELECT count(*) FROM event_destinations AS o
    WHERE o.account_id = ${d.accountId} AND o.live = ${d.live} AND o.lease_until > ${at})`;
  return db
    .update(e)
    .set({ leaseUntil: new Date(now + LEASE_MS).toISOString() })
    .where(
      and(
        eq(e.id, d.id),
        or(isNull(e.leaseUntil), lte(e.leaseUntil, at)),
        or(isNull(e.circuitUntil), lte(e.circuitUntil, at)),
        sql`${held} < ${ACCOUNT_LEASES}`,
      ),
    )
    .returning({ id: e.id });
}

/** A queue delay in seconds to `until` (ms), spread by up to a fifth so that held messages do not return at once. */
export function delayUntil(until: number, now: number): number {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return Math.min(seconds + Math.floor(Math.random() * (seconds / 5 + 1)), 43_200);
}
