import type { BatchItem } from "drizzle-orm/batch";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

/** D1 cost of one request, summed over every batch it ran. */
export type DbUsage = { rowsRead: number; rowsWritten: number };

/**
 * Drizzle over D1, with the request's D1 usage counted. Every query on a request path goes
 * through `db.batch` (one round trip, atomic for writes), whose results carry D1's `meta`.
 * Queue consumers and the cron leave `usage` out: nobody reads their count.
 */
export function createDb(d1: D1Database, usage: DbUsage = { rowsRead: 0, rowsWritten: 0 }): Database {
  const counted = new Proxy(d1, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          for (const r of results) {
            usage.rowsRead += r.meta.rows_read ?? 0;
            usage.rowsWritten += r.meta.rows_written ?? 0;
          }
          return results;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return drizzle(counted, { schema });
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
