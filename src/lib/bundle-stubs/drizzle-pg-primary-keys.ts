/**
 * Stands in for drizzle-orm's `pg-core/primary-keys.js` in the API Worker's build only
 * (wrangler.toml [alias]): drizzle's relational config imports it for an `is(x,
 * PrimaryKeyBuilder)` check alone, which pulls in the Postgres table and column classes. The
 * same entity kind, so `is` answers as it does with drizzle-orm 0.45's class (never for a
 * SQLite table's entries).
 */
import { entityKind } from "drizzle-orm";

// biome-ignore lint/complexity/noStaticOnlyClass: drizzle's `is` reads the entity kind off a class.
export class PrimaryKeyBuilder {
  static readonly [entityKind] = "PgPrimaryKeyBuilder";
}
