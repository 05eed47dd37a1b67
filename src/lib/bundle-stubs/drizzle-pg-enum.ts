/**
 * Stands in for drizzle-orm's `pg-core/columns/enum.js` in the API Worker's build only
 * (wrangler.toml [alias]): drizzle's SQL builder imports it for `isPgEnum` alone, which pulls
 * in Postgres column classes a D1 Worker never uses. The same check, copied from drizzle-orm
 * 0.45: no SQLite value is ever a Postgres enum.
 */
const isPgEnumSym = Symbol.for("drizzle:isPgEnum");

export function isPgEnum(obj: unknown): boolean {
  return (
    !!obj &&
    typeof obj === "function" &&
    isPgEnumSym in obj &&
    (obj as unknown as Record<symbol, unknown>)[isPgEnumSym] === true
  );
}
