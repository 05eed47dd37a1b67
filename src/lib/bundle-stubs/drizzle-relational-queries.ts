/**
 * Stands in for drizzle-orm's `relations.js` and `sqlite-core/query-builders/query.js` in the
 * API Worker's build only (wrangler.toml [alias]): the relational query API (`db.query.…`,
 * `relations()`) works only when `drizzle()` is given a `schema`, and src/db/client.ts gives it
 * none, so the SQL builder's relational code is never reached. Were a schema ever passed, the
 * Worker would throw on its first request instead of querying.
 */
import { entityKind } from "drizzle-orm";

function relationalQueriesUnavailable(): never {
  throw new Error(
    "drizzle's relational queries are not part of the API Worker's build (wrangler.toml [alias])",
  );
}

// For the dialect's `is(relation, One)` checks: the same entity kinds as drizzle-orm 0.45's classes.
// biome-ignore lint/complexity/noStaticOnlyClass: drizzle's `is` reads the entity kind off a class.
export class One {
  static readonly [entityKind] = "One";
}
// biome-ignore lint/complexity/noStaticOnlyClass: drizzle's `is` reads the entity kind off a class.
export class Many {
  static readonly [entityKind] = "Many";
}

export {
  relationalQueriesUnavailable as createTableRelationsHelpers,
  relationalQueriesUnavailable as extractTablesRelationalConfig,
  relationalQueriesUnavailable as getOperators,
  relationalQueriesUnavailable as getOrderByOperators,
  relationalQueriesUnavailable as normalizeRelation,
  relationalQueriesUnavailable as RelationalQueryBuilder,
};
