import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { isNotNullViolation } from "../db/errors";
import { writeBudgets } from "../db/schema";
import { nowIso, nowMs } from "../lib/clock";
import { ApiError } from "./errors";

type Statement = BatchItem<"sqlite">;

/** What a statement costs beyond the values it binds: its row's and index entries' overhead. */
const STATEMENT_BYTES = 100;
const utf8 = new TextEncoder();

/**
 * Adds what `statements` store to today's count of `scope`'s environment (the first write of a
 * UTC day starts it over), in the write's own batch: one row written, no round trip of its own.
 * What they store is the bytes they bind plus `STATEMENT_BYTES` each, read from the statements
 * themselves so that no write path can forget to count (columns the SQL fills, such as an
 * invoice's number, are within the overhead). Past `limit` (the budget; none, 10^15, for a
 * stored response, whose write already committed) the count is NULL, and its NOT NULL
 * constraint fails the whole batch: a refused write stores nothing, and concurrent writes cannot
 * both pass a check each read before the other wrote.
 *
 * @example
 * await db.batch([insert, charge(db, caller, [insert], 50_000_000)]); // throws past 50 MB today
 */
export function charge(
  db: Database,
  scope: { accountId: string; live: boolean },
  statements: readonly Statement[],
  limit = 1e15,
): Statement {
  let bytes = 0;
  for (const s of statements) {
    bytes += STATEMENT_BYTES;
    for (const p of (s as { toSQL?: () => { params: unknown[] } }).toSQL?.().params ?? []) {
      bytes += typeof p === "string" ? utf8.encode(p).byteLength : 8;
    }
  }
  const b = writeBudgets;
  const day = nowIso().slice(0, 10);
  const total = sql`CASE WHEN ${b.day} = ${day} THEN ${b.bytes} ELSE 0 END + ${bytes}`;
  return db
    .insert(b)
    .values({ accountId: scope.accountId, live: scope.live, day, bytes: bytes <= limit ? bytes : sql`NULL` })
    .onConflictDoUpdate({
      target: [b.accountId, b.live],
      set: { day, bytes: sql`CASE WHEN ${total} <= ${limit} THEN ${total} END` },
    });
}

/** The 429 of a write batch that `charge` refused (`limit`: its budget); anything else: null. */
export function exhausted(err: unknown, limit?: number): ApiError | null {
  if (!limit || !isNotNullViolation(err, "write_budgets.bytes")) return null;
  return new ApiError(
    "storage_budget_exhausted",
    "This environment's write budget for today is used up; nothing was written. Retry after midnight UTC.",
    { headers: { "Retry-After": String(Math.ceil((86_400_000 - (nowMs() % 86_400_000)) / 1000)) } },
  );
}
