import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { MiddlewareHandler } from "hono";
import { counted, type Database } from "../db/client";
import { isNotNullViolation } from "../db/errors";
import { idempotencyKeys } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import type { AppEnv } from "./context";
import { ApiError, type ErrorCode } from "./errors";
import { charge, exhausted } from "./write-budget";

type Statement = BatchItem<"sqlite">;

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Stored responses are replayed for this long (Stripe's 24 hours). */
const TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A first request still "running" after this long is taken to have died with its isolate:
 * its key is free again. If it was only slow, a write it makes through `writeWithEvents`
 * cannot commit after the takeover (the claim is fenced by its `created_at`, see
 * `idempotencyMark`), nor can any other POST's: each writes through `writeWithEvents` or
 * `fencedWrite`.
 */
const ABANDONED_AFTER_MS = 60_000;
/**
 * `response_status` of a key whose request committed its write but has not stored its
 * response yet: set inside the write's own batch (`Writer.idempotencyMark`), so a request that
 * dies after its write (or fails to store its response) is never taken over and run twice.
 */
const COMMITTED = 0;
/** Per request mark (`idempotencyMark`): the statement that undoes it (`releaseMark`). */
const releases = new WeakMap<readonly Statement[], Statement>();
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
/**
 * A request that fails validation is not stored, wherever the check runs: in the schema, or in
 * the handler (a Tax ID's check digit, a webhook URL's host, an invoice's line rules), so the
 * corrected request can be retried with the same key; nor is one refused by its write budget,
 * which the same key retries the next day.
 */
const VALIDATION_CODES: ReadonlySet<ErrorCode | undefined> = new Set<ErrorCode>([
  "parameter_invalid",
  "parameter_missing",
  "parameter_unknown",
  "storage_budget_exhausted",
]);

/**
 * `Idempotency-Key` on a POST, with Stripe's semantics: once the handler has run, its
 * response (2xx, or a 4xx from a business rule) is stored per account, environment and key
 * and replayed byte for byte with `Idempotent-Replayed: true`. A request that failed
 * validation (`VALIDATION_CODES`), a 5xx, or one that never reached its handler is not
 * stored, unless its write committed (`COMMITTED`). The same key with another path or body
 * is 400 `idempotency_key_reused`; a second request while the first runs is 409
 * `idempotency_key_in_use`. The key is claimed with one conditional insert, so concurrent
 * requests with one key cannot both run.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (!KEY_FORMAT.test(key)) {
    throw new ApiError("parameter_invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters.", {
      param: IDEMPOTENCY_HEADER,
    });
  }
  const db = c.get("db");
  const caller = c.get("caller");
  const requestHash = await sha256Hex(`${c.req.method} ${c.req.path}\n${JSON.stringify(c.get("body"))}`);
  const now = nowIso();
  const k = idempotencyKeys;
  const byKey = and(eq(k.accountId, caller.accountId), eq(k.live, caller.live), eq(k.key, key)) as SQL;
  // This request's claim: a takeover writes another `created_at`, so nothing below touches it.
  const mine = and(byKey, eq(k.createdAt, now)) as SQL;

  const claimed = await counted(
    db,
    db
      .insert(k)
      .values({
        accountId: caller.accountId,
        live: caller.live,
        key,
        requestHash,
        createdAt: now,
        expiresAt: new Date(nowMs() + TTL_MS).toISOString(),
      })
      .onConflictDoUpdate({
        target: [k.accountId, k.live, k.key],
        set: {
          requestHash,
          responseStatus: null,
          responseBody: null,
          responseContentType: null,
          createdAt: now,
          expiresAt: sql`excluded.expires_at`,
        },
        // Only an expired key, or one whose first request was abandoned, is taken over.
        setWhere: sql`${k.expiresAt} <= ${now} OR (${k.responseStatus} IS NULL AND ${k.createdAt} <= ${new Date(nowMs() - ABANDONED_AFTER_MS).toISOString()})`,
      })
      .returning({ key: k.key }),
  );

  if (claimed.length === 0) {
    const [stored] = await counted(db, db.select().from(k).where(byKey).limit(1));
    if (stored && stored.requestHash !== requestHash) {
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was used with another request (path or body); use a new key for a new request.",
        { param: IDEMPOTENCY_HEADER },
      );
    }
    if (!stored || stored.responseStatus === null) {
      throw new ApiError(
        "idempotency_key_in_use",
        "A request with this Idempotency-Key is still running; retry later.",
      );
    }
    if (stored.responseStatus === COMMITTED) {
      throw new ApiError(
        "idempotency_key_in_use",
        "The request with this Idempotency-Key made its changes, and its response is not stored (yet, or it was lost): it will not run again. Retry later, or find the object with a list request.",
      );
    }
    return new Response(stored.responseBody, {
      status: stored.responseStatus,
      headers: {
        ...(stored.responseContentType && { "Content-Type": stored.responseContentType }),
        "Idempotent-Replayed": "true",
      },
    });
  }

  const mark: Statement[] = [
    // Fails the write's whole batch unless the claim is still this request's: one taken over
    // after ABANDONED_AFTER_MS must not commit next to its successor's write. Still ours, the
    // row collides with the claim and does nothing; not ours, its key is NULL and the
    // NOT NULL constraint aborts the batch.
    db
      .insert(k)
      .values({
        accountId: caller.accountId,
        live: caller.live,
        key: sql`CASE WHEN EXISTS (SELECT 1 FROM ${k} WHERE ${mine} AND ${k.responseStatus} IS NULL) THEN ${key} END`,
        requestHash,
        createdAt: now,
        expiresAt: now,
      })
      .onConflictDoNothing(),
    db
      .update(k)
      .set({ responseStatus: COMMITTED })
      .where(and(mine, isNull(k.responseStatus))),
  ];
  releases.set(
    mark,
    db
      .update(k)
      .set({ responseStatus: null })
      .where(and(mine, eq(k.responseStatus, COMMITTED))),
  );
  c.set("idempotencyMark", mark);
  await next();
  const res = c.res;
  if (!c.get("handlerStarted") || res.status >= 500 || VALIDATION_CODES.has(c.get("errorCode"))) {
    // A key whose write committed stays (COMMITTED): its request must not run again.
    await counted(db, db.delete(k).where(and(mine, isNull(k.responseStatus))));
    return;
  }
  const store = db
    .update(k)
    .set({
      responseStatus: res.status,
      responseBody: res.status === 204 ? null : await res.clone().text(),
      responseContentType: res.headers.get("content-type"),
    })
    .where(mine);
  // The stored response counts against the write budget, and is never refused by it: its write
  // (if any) committed, and a key without its response would not replay.
  await db.batch([store, charge(db, caller, [store])]);
};

/**
 * The error a write batch's idempotency guard raised, as the API answers it: this request's key
 * was taken over (it ran past ABANDONED_AFTER_MS) and its write rolled back. Anything else: null.
 */
export function takenOver(err: unknown): ApiError | null {
  if (!isNotNullViolation(err, "idempotency_keys.key")) return null;
  return new ApiError(
    "idempotency_key_in_use",
    "This request ran so long that another request with its Idempotency-Key took the key over; it changed nothing. Retry later: the other request's response is then replayed.",
  );
}

/**
 * Writes `statements` in one D1 batch with the request's idempotency mark (`Writer.idempotencyMark`,
 * none without a key): the fence of `writeWithEvents`, for a write that records no event. Once
 * the key is taken over, the batch fails whole and this throws 409 `idempotency_key_in_use`;
 * past a request's write budget (`w.budget`), 429 `storage_budget_exhausted`.
 * With no statements, the mark alone is written: the fence of an effect outside D1 (a queued
 * delivery), to commit before it. Results by name.
 *
 * @example
 * const { rotated } = await fencedWrite(w, { rotated: db.update(eventDestinations).set(…).returning() });
 */
export async function fencedWrite<S extends Record<string, Statement>>(
  w: {
    db: Database;
    idempotencyMark?: Statement[];
    scope: { accountId: string; live: boolean };
    budget?: number;
  },
  statements: S,
): Promise<{ [K in keyof S]: Awaited<S[K]> }> {
  const names = Object.keys(statements);
  const batch = [...names.map((name) => statements[name] as Statement), ...(w.idempotencyMark ?? [])];
  if (batch.length === 0) return {} as { [K in keyof S]: Awaited<S[K]> };
  // A request's write is charged in its own batch (http/write-budget.ts): over budget, it fails whole.
  if (w.budget) batch.push(charge(w.db, w.scope, batch, w.budget));
  const out = (await w.db.batch(batch as [Statement, ...Statement[]]).catch((err) => {
    throw takenOver(err) ?? exhausted(err, w.budget) ?? err;
  })) as unknown[];
  return Object.fromEntries(names.map((name, i) => [name, out[i]])) as { [K in keyof S]: Awaited<S[K]> };
}

/**
 * The statements that undo a committed mark (none without a key), for a write undone after it
 * committed (a ping whose delivery could not be queued): the request's 5xx then frees its key,
 * and the retry runs, instead of being refused as already done.
 */
export function releaseMark(mark: Statement[] | undefined): Statement[] {
  const release = mark && releases.get(mark);
  return release ? [release] : [];
}
