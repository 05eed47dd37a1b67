import { and, eq, isNotNull, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { deliveryAttempts, type EventDestinationRow, eventDestinations } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import type { Slots } from "../lib/connections";
import { newId } from "../lib/ids";
import { circuitWindowMs } from "./circuit";
import { allowLoopbackDestinations, DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS } from "./config";
import { deadLetterWrites } from "./dead-letters";
import { signingSecrets } from "./rotation";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";
import { checkDestinationUrl } from "./url";

export type Outcome = { ok: boolean; statusCode: number | null; error: string | null; durationMs: number };

/**
 * One POST of the thin body, signed with a fresh timestamp, once one of the invocation's
 * connection `slots` is free (its timeout and duration count from then). Never throws.
 */
export function post(
  destination: EventDestinationRow,
  body: string,
  env: Env,
  slots: Slots,
): Promise<Outcome> {
  return slots(() => send(destination, body, env));
}

async function send(destination: EventDestinationRow, body: string, env: Env): Promise<Outcome> {
  const started = nowMs();
  // Checked again at send time: the rule may have tightened since the URL was saved.
  const url = checkDestinationUrl(destination.url, { allowLoopbackHttp: allowLoopbackDestinations(env) });
  if (!url.ok) return { ok: false, statusCode: null, error: `url rejected: ${url.message}`, durationMs: 0 };
  try {
    const t = Math.floor(nowMs() / 1000);
    const res = await fetch(url.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "invoicing-api-webhooks/1",
        [SIGNATURE_HEADER]: await signatureHeader(signingSecrets(destination, nowIso()), t, body),
      },
      body,
      // A redirect is a failed attempt: following it could reach an address we would refuse.
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      statusCode: res.status,
      error: ok ? null : `HTTP ${res.status}`,
      durationMs: nowMs() - started,
    };
  } catch (err) {
    const error =
      err instanceof Error && err.name === "TimeoutError" ? "timeout" : `network error: ${String(err)}`;
    return { ok: false, statusCode: null, error: error.slice(0, 500), durationMs: nowMs() - started };
  }
}

/** One attempt; `failingSince` is its destination's as read before it. */
type Attempt = { eventId: string; destinationId: string; number: number; failingSince: string | null };

/**
 * The writes that record an attempt and the destination's health, for one batch. A failure
 * starts (or continues) its failing streak and opens its circuit (`circuit.ts`); a streak of
 * 24 hours disables it (the third statement returns the destination then). A failed `last`
 * attempt also stops the delivery: exhausted, kept as a dead letter. Either outcome frees
 * the destination's lease, if the attempt held it.
 */
export function attemptWrites(
  db: Database,
  attempt: Attempt,
  outcome: Outcome,
  { last }: { last: boolean },
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const now = nowIso();
  const insert = db.insert(deliveryAttempts).values({
    id: newId("deliveryAttempt"),
    eventId: attempt.eventId,
    destinationId: attempt.destinationId,
    attempt: attempt.number,
    outcome: outcome.ok ? "succeeded" : "failed",
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
    createdAt: now,
  });
  const e = eventDestinations;
  const byId = eq(e.id, attempt.destinationId);
  if (outcome.ok) {
    // Ends a failing streak, closes the circuit: a write only when there is something to end.
    const dirty = and(
      byId,
      or(isNotNull(e.failingSince), isNotNull(e.circuitUntil), isNotNull(e.leaseUntil)),
    );
    return [
      insert,
      db.update(e).set({ failingSince: null, circuitUntil: null, leaseUntil: null }).where(dirty),
    ];
  }
  const at = nowMs();
  const cutoff = new Date(at - DISABLE_AFTER_MS).toISOString();
  const circuitUntil = new Date(at + circuitWindowMs(attempt.failingSince, at)).toISOString();
  const { eventId, destinationId, number } = attempt;
  const stop = last ? deadLetterWrites(db, { eventId, destinationId, attempt: number }, "exhausted") : [];
  return [
    insert,
    db
      .update(e)
      .set({ failingSince: sql`coalesce(${e.failingSince}, ${now})`, circuitUntil, leaseUntil: null })
      .where(byId),
    db
      .update(e)
      .set({ status: "disabled", disabledReason: "delivery_failures", updatedAt: now })
      .where(and(byId, eq(e.status, "enabled"), isNotNull(e.failingSince), lte(e.failingSince, cutoff)))
      .returning({ id: e.id }),
    ...stop,
  ];
}

/** Records one attempt (`attemptWrites`, one batch). Returns whether it disabled the destination. */
export async function recordAttempt(
  db: Database,
  attempt: Attempt,
  outcome: Outcome,
  options: { last: boolean },
): Promise<boolean> {
  const results = await db.batch(attemptWrites(db, attempt, outcome, options));
  return !outcome.ok && (results[2] as unknown[]).length > 0;
}
