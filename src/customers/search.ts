import { and, asc, desc, eq, like, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { accounts, type CustomerRow, customers } from "../db/schema";
import { ownedBy } from "../db/scope";
import { cursorOf, type ListParams, type Page, pageOf } from "../http/pagination";
import { isId } from "../lib/ids";

// The trigram index answers substrings of three characters or more.
const FTS_MIN_CHARS = 3;
/** One or two characters cannot use the index: they look at this many newest customers. */
export const SHORT_QUERY_WINDOW = 300;
/** 2^32: each account and environment owns one FTS rowid range of this size (migration 0017). */
const RANGE = sql.raw("4294967296");

export type SearchFilters = { q: string; country: string | undefined };

/**
 * How `q` is searched. A customer id is a lookup; three characters or more go through the
 * FTS5 trigram index inside the caller's own rowid range (`searchPage`); one or two characters
 * scan the caller's newest SHORT_QUERY_WINDOW customers with LIKE (`shortScope`).
 */
export function searchPlan(q: string): "id" | "index" | "short" {
  if (isId("customer", q)) return "id";
  return [...q].length >= FTS_MIN_CHARS ? "index" : "short";
}

/** The first FTS5 rowid of the caller's range: ((account search_key × 2 + live) << 32). */
function rangeStart(caller: Caller): SQL<number> {
  // Literals and integer subqueries only: FTS5 narrows to the range only for integer bounds
  // (D1 binds numbers as floats).
  const key = sql`(SELECT ${accounts.searchKey} FROM ${accounts} WHERE ${accounts.id} = ${caller.accountId})`;
  return sql<number>`((${key} * 2 + ${sql.raw(caller.live ? "1" : "0")}) * ${RANGE})`;
}

/**
 * The FTS5 query: `q` as one phrase (a substring, case-insensitive) over the searched columns,
 * and the country filter, which lives in the index so a page is never cut short by it.
 */
function matchExpression({ q, country }: SearchFilters): string {
  const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const term = `{id name tax_id_value email} : ${phrase(q)}`;
  return country === undefined ? term : `${term} AND country : ${phrase(`country:${country}`)}`;
}

/**
 * One page of an index search, newest first (by creation order, `seq`). FTS5 walks only the
 * caller's rowid range, in order, and stops after `limit + 1` matches, so a page reads about
 * 2 × (limit + 1) rows whatever the term and whatever other tenants hold. A cursor must be a
 * customer of this search, as in every list.
 */
export async function searchPage(
  db: Database,
  caller: Caller,
  filters: SearchFilters,
  params: ListParams,
): Promise<Page<CustomerRow>> {
  const { limit, backwards, cursor, invalidCursor } = cursorOf(params);
  const start = rangeStart(caller);
  const match = matchExpression(filters);
  const cursorSeq =
    cursor === undefined
      ? undefined
      : sql`(SELECT ${customers.seq} FROM ${customers} WHERE ${and(eq(customers.id, cursor), ownedBy(customers, caller))})`;
  const bounds =
    cursorSeq === undefined
      ? sql`rowid >= ${start} AND rowid < ${start} + ${RANGE}`
      : backwards
        ? sql`rowid > ${start} + ${cursorSeq} AND rowid < ${start} + ${RANGE}`
        : sql`rowid >= ${start} AND rowid < ${start} + ${cursorSeq}`;
  const matches = sql`SELECT rowid - ${start} FROM customers_fts WHERE customers_fts MATCH ${match} AND ${bounds} ORDER BY rowid ${sql.raw(backwards ? "ASC" : "DESC")} LIMIT ${limit + 1}`;
  const page = db
    .select()
    .from(customers)
    // The unary `+` keeps the list index out: the plan is matches → primary-key lookups.
    .where(and(sql`${customers.seq} IN (${matches})`, sql`+${customers.accountId} = ${caller.accountId}`))
    .orderBy(backwards ? asc(customers.seq) : desc(customers.seq));

  if (cursorSeq === undefined) return pageOf(await counted(db, page), limit, backwards);
  if (!isId("customer", cursor as string)) throw invalidCursor();
  // The cursor is looked up as a customer first, and its FTS row by its real rowid. A cursor
  // naming no customer must never reach FTS5 as `rowid = NULL`: some SQLite builds read a NULL
  // rowid bound as no bound at all, and found any match (wrangler dev answered 200 to an
  // unknown cursor while the test pool's workerd answered 400).
  const check = db
    .select({ one: sql<number>`1` })
    .from(customers)
    .where(
      and(
        eq(customers.id, cursor as string),
        ownedBy(customers, caller),
        sql`EXISTS (SELECT 1 FROM customers_fts WHERE customers_fts MATCH ${match} AND rowid = ${start} + ${customers.seq})`,
      ),
    );
  const [found, rows] = await db.batch([check, page]);
  if (found.length === 0) throw invalidCursor();
  return pageOf(rows, limit, backwards);
}

/**
 * The scope of a search that `paginate` lists: a customer id is that customer; one or two
 * characters are a LIKE scan of the caller's SHORT_QUERY_WINDOW newest customers (reading at
 * most that many), which the trigram index cannot answer.
 */
export function shortScope(q: string, caller: Caller, plan: "id" | "short"): SQL | undefined {
  if (plan === "id") return and(ownedBy(customers, caller), eq(customers.id, q));
  const newest = sql`SELECT ${customers.id} FROM ${customers} WHERE ${ownedBy(customers, caller)} ORDER BY ${customers.id} DESC LIMIT ${SHORT_QUERY_WINDOW}`;
  return and(ownedBy(customers, caller), sql`${customers.id} IN (${newest})`, likeCondition(q));
}

/**
 * The same match as a LIKE scan over the caller's customers: the path for one or two
 * characters, and the baseline the benchmark compares the trigram index with.
 */
export function likeCondition(q: string): SQL | undefined {
  const columns = [customers.id, customers.name, customers.taxIdValue, customers.email];
  return or(
    ...caseVariants(q).flatMap((variant) => {
      const pattern = `%${variant.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      return columns.map((column: SQLiteColumn) => sql`${like(column, pattern)} ESCAPE '\\'`);
    }),
  );
}

/**
 * The spellings of a short `q` with its non-ASCII letters in either case: SQLite's LIKE
 * folds only ASCII, while the FTS path folds every letter ("ñ" must find "Ñandú" too).
 * Variants double with each such letter, so longer strings are left as they are.
 */
function caseVariants(q: string): string[] {
  if ([...q].length >= FTS_MIN_CHARS) return [q];
  let variants = [""];
  for (const ch of q) {
    const forms = new Set([ch]);
    if (ch > "\x7f") {
      for (const form of [ch.toLowerCase(), ch.toUpperCase()]) if ([...form].length === 1) forms.add(form);
    }
    variants = variants.flatMap((v) => [...forms].map((form) => v + form));
  }
  return variants;
}
