import type { BatchItem } from "drizzle-orm/batch";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

/** No relational `db.query` API: building its config from the schema costs every request. */
export type Database = DrizzleD1Database;

/**
 * D1 cost of one request: rows summed over every batch it ran; round trips (a batch is one, a
 * statement run on its own is one) counted only when `roundTrips` starts as a number
 * (EXPOSE_DB_METRICS), so that production statements are not wrapped.
 */
export type DbUsage = { rowsRead: number; rowsWritten: number; roundTrips?: number };

/**
 * Drizzle over D1, with the request's D1 usage counted. Every query on a request path goes
 * through `db.batch` (one round trip, atomic for writes), whose results carry D1's `meta`.
 *
 * A request passes its own session (src/db/session.ts). A bare binding is opened as a session
 * on the primary: queue consumers and the cron read what a write produced, never a replica
 * that has not caught up with it. They leave `usage` out: nobody reads their count.
 */
export function createDb(
  d1: D1Database | D1DatabaseSession,
  usage: DbUsage = { rowsRead: 0, rowsWritten: 0 },
): Database {
  const session = "withSession" in d1 ? d1.withSession("first-primary") : d1;
  const counted = new Proxy(session, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (usage.roundTrips !== undefined) usage.roundTrips++;
          const results = await target.batch(statements);
          for (const r of results) {
            usage.rowsRead += r.meta.rows_read ?? 0;
            usage.rowsWritten += r.meta.rows_written ?? 0;
          }
          return results;
        };
      }
      if (prop === "prepare" && usage.roundTrips !== undefined) {
        return (sql: string) => countRuns(target.prepare(sql), usage);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  // Drizzle only prepares and batches, which a session does like the binding.
  return drizzle(counted as unknown as D1Database);
}

/**
 * A statement whose every run on its own (`run`, `all`, `first`, `raw`) counts one round trip;
 * in a batch it is read, not run. Its rows are not counted: `raw` and `first` do not return them.
 */
function countRuns(statement: D1PreparedStatement, usage: DbUsage): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => countRuns(target.bind(...values), usage);
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        usage.roundTrips = (usage.roundTrips ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
}

/**
 * Runs one query as a batch of one, so that its D1 row counts reach the request's usage
 * (a plain `await query` bypasses `batch`, the only place they are read).
 *
 * @example
 * const rows = await counted(db, db.select().from(customers).where(…).limit(1));
 */
export async function counted<T extends BatchItem<"sqlite">>(db: Database, query: T): Promise<Awaited<T>> {
  const [result] = await db.batch([query]);
  return result as Awaited<T>;
}

type Query = BatchItem<"sqlite">;

/**
 * Runs the queries given (an `undefined` one is left out of the batch) as one batch, one
 * round trip, and returns each result under its name.
 *
 * @example
 * const { customer, options } = await batchByName(db, {
 *   customer: db.select().from(customers).where(…),
 *   options: ids.length ? db.select().from(paymentInstructions).where(…) : undefined,
 * });
 */
export async function batchByName<Q extends Record<string, Query | undefined>>(
  db: Database,
  queries: Q,
): Promise<{ [K in keyof Q]: Q[K] extends Query ? Awaited<Q[K]> : Awaited<NonNullable<Q[K]>> | undefined }> {
  const present = Object.entries(queries).filter((entry): entry is [string, Query] => entry[1] !== undefined);
  const results = present.length ? await db.batch(present.map(([, q]) => q) as [Query, ...Query[]]) : [];
  return Object.fromEntries(present.map(([name], i) => [name, results[i]])) as never;
}

/** Ids per statement in `batchByIds`: far under D1's 100 bound parameters per statement. */
const IDS_PER_STATEMENT = 90;

/**
 * Runs `statement` for `ids` in groups small enough for D1's bound-parameter limit, all in
 * one batch (one round trip, one transaction). Nothing runs for no ids.
 *
 * @example
 * await batchByIds(db, ids, (group) => db.update(events).set({ sweptAt: now }).where(inArray(events.id, group)));
 */
export async function batchByIds(
  db: Database,
  ids: readonly string[],
  statement: (group: string[]) => Query,
): Promise<void> {
  const statements: Query[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    statements.push(statement(ids.slice(i, i + IDS_PER_STATEMENT)));
  }
  if (statements.length > 0) await db.batch(statements as [Query, ...Query[]]);
}
