import { and, eq, like, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { customers } from "../../db/schema";
import type { Caller } from "../../env";
import { ownedBy } from "../../lib/scope";

// The trigram index answers substrings of three characters or more.
const FTS_MIN_CHARS = 3;

/**
 * The caller's customers matching `q`: case-insensitive substring over id, name, Tax ID
 * value and email, with `%` and `_` literal.
 *
 * Three characters or more use the FTS5 trigram index (a phrase query is a substring match
 * there), and the query must be driven by it: left alone, SQLite walks the list index
 * `(account_id, live, id)` for the page order and probes the matches row by row, reading
 * every customer of the account when few match. The unary `+` keeps `account_id` off every
 * index, so the plan is: matches → primary-key lookups → sort. It costs O(matches).
 *
 * One or two characters scan the caller's customers with LIKE in list order, stopping at a
 * full page.
 */
export function searchScope(q: string, caller: Caller): SQL | undefined {
  if ([...q].length >= FTS_MIN_CHARS) {
    const phrase = `"${q.replaceAll('"', '""')}"`;
    return and(
      sql`+${customers.accountId} = ${caller.accountId}`,
      eq(customers.live, caller.live),
      sql`${customers.seq} IN (SELECT rowid FROM customers_fts WHERE customers_fts MATCH ${phrase})`,
    );
  }
  return and(ownedBy(customers, caller), likeCondition(q));
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
