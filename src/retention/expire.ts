import { lt, lte, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb, type Database } from "../db/client";
import { deliveryAttempts, events, idempotencyKeys, webhookDeadLetters } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { log, logError } from "../lib/log";

/** Events, their delivery attempts and dead letters are kept 30 days (as Stripe keeps events). */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type ChunkOptions = {
  /** Rows a statement deletes (default 500). */
  chunk?: number;
  /** Statements a table gets per run (default 10); what is left waits for the next run. */
  maxChunks?: number;
};
/** What a run did to one table: rows deleted, statements, D1's rows read and SQL time. */
export type Deleted = { deleted: number; chunks: number; rowsRead: number; durationMs: number };

/** What the retention policy deletes, each through an index on the column it compares. */
const RULES = {
  deliveryAttempts: () => [deliveryAttempts, lt(deliveryAttempts.createdAt, cutoff())],
  deadLetters: () => [webhookDeadLetters, lt(webhookDeadLetters.createdAt, cutoff())],
  events: () => [events, lt(events.createdAt, cutoff())],
  idempotencyKeys: () => [idempotencyKeys, lte(idempotencyKeys.expiresAt, nowIso())],
} satisfies Record<string, () => [SQLiteTable, SQL | undefined]>;

export type RetainedTable = keyof typeof RULES;

const cutoff = () => new Date(nowMs() - RETENTION_MS).toISOString();

/**
 * Deletes the rows of `table` matching `where`, `chunk` at a time and at most `maxChunks`
 * times. Each statement binds two parameters (D1 allows 100) and touches `chunk` rows, so
 * it runs in milliseconds (D1 stops a statement at 30 s) and holds D1's one writer briefly.
 * `where` must be served by an index: otherwise every chunk scans the table.
 *
 * @example
 * await deleteInChunks(db, idempotencyKeys, lte(idempotencyKeys.expiresAt, nowIso()), { chunk: 500 });
 */
export async function deleteInChunks(
  db: Database,
  table: SQLiteTable,
  where: SQL | undefined,
  { chunk = 500, maxChunks = 10 }: ChunkOptions = {},
): Promise<Deleted> {
  const result: Deleted = { deleted: 0, chunks: 0, rowsRead: 0, durationMs: 0 };
  while (result.chunks < maxChunks) {
    const [res] = (await db.batch([
      db.delete(table).where(sql`rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${chunk})`),
    ])) as unknown as [D1Result];
    result.chunks += 1;
    result.deleted += res.meta.changes;
    result.rowsRead += res.meta.rows_read;
    result.durationMs += res.meta.duration;
    if (res.meta.changes < chunk) break;
  }
  return result;
}

/** Applies one rule of the policy. */
export function deleteExpired(env: Env, rule: RetainedTable, options?: ChunkOptions): Promise<Deleted> {
  const [table, where] = RULES[rule]();
  return deleteInChunks(createDb(env.DB), table, where, options);
}

/**
 * The data-retention policy, run by the minute cron: delivery attempts, dead letters and
 * events older than 30 days, and expired idempotency keys. Nothing references an event by
 * foreign key, so the order is free; a table that fails is logged and the others go on.
 */
export async function deleteExpiredData(
  env: Env,
  options?: ChunkOptions,
): Promise<Record<RetainedTable, Deleted>> {
  const out = {} as Record<RetainedTable, Deleted>;
  for (const rule of Object.keys(RULES) as RetainedTable[]) {
    try {
      out[rule] = await deleteExpired(env, rule, options);
    } catch (err) {
      logError("retention_error", err, { code: rule });
      out[rule] = { deleted: 0, chunks: 0, rowsRead: 0, durationMs: 0 };
    }
  }
  if (Object.values(out).some((d) => d.deleted > 0)) {
    log("retention_done", {
      delivery_attempt_count: out.deliveryAttempts.deleted,
      dead_letter_count: out.deadLetters.deleted,
      event_count: out.events.deleted,
      idempotency_key_count: out.idempotencyKeys.deleted,
      sql_ms: Object.values(out).reduce((ms, d) => ms + d.durationMs, 0),
    });
  }
  return out;
}

/** Expired `Idempotency-Key`s, in bounded chunks (the cron deletes them with the rest). */
export async function deleteExpiredIdempotencyKeys(env: Env, maxChunks = 10): Promise<number> {
  return (await deleteExpired(env, "idempotencyKeys", { maxChunks })).deleted;
}
