/**
 * Stands in for drizzle-orm's `sqlite-core/columns/{blob,custom,numeric,real}.js` in the API
 * Worker's build only (wrangler.toml [alias]): `sqliteTable` offers every column builder to a
 * columns callback (`getSQLiteColumnBuilders`), which bundles these four, while src/db/schema
 * declares its columns with `text` and `integer` alone. A column of one of them would throw
 * where the schema is loaded, at the Worker's start, instead of being built.
 */
function columnUnavailable(): never {
  throw new Error(
    "drizzle's blob, numeric, real and custom SQLite columns are not part of the API Worker's build (wrangler.toml [alias])",
  );
}

export {
  columnUnavailable as blob,
  columnUnavailable as customType,
  columnUnavailable as numeric,
  columnUnavailable as real,
};
