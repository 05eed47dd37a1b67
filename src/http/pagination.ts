import { and, asc, desc, eq, getTableColumns, gt, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as z from "zod";
import { counted, type Database } from "../db/client";
import { type IdKind, isId } from "../lib/ids";
import { ApiError } from "./errors";

/** Query parameters shared by every list; resources `.extend()` it with their filters. */
export const listParams = z
  .object({
    limit: z
      .string()
      .regex(/^\d+$/, "must be an integer between 1 and 100")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 100, "must be an integer between 1 and 100")
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : { description: "How many objects a page holds: an integer from 1 to 100 (default 25)." },
      )
      .optional(),
    starting_after: z
      .string()
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "An id from the list: the page of objects after it (older). Pass the last id of `data`.",
            },
      )
      .optional(),
    ending_before: z
      .string()
      .meta(
        globalThis.OMIT_API_DOCS
          ? {}
          : {
              description:
                "An id from the list: the page of objects before it (newer), still newest first. Pass the first id of `data`.",
            },
      )
      .optional(),
  })
  .strict();

export type ListParams = z.output<typeof listParams>;

export type Page<Row> = { data: Row[]; has_more: boolean };

type PagedTable = SQLiteTable & { id: SQLiteColumn };

/**
 * The one cursor implementation. Newest first in both directions; `has_more` is about the
 * direction of travel. A page reads at most `limit + 1` rows through the table's
 * `(scope…, id)` index, plus one row to check the cursor.
 *
 * `where` scopes the list (account, environment, filters). A cursor must be the id of a
 * row that this same `where` selects, or the request is a 400 with `param`.
 *
 * `columns`, when given, are what a row reads instead of all of them (`Row` their shape).
 *
 * `from`, when given, is the FROM clause both queries use instead of the bare table: the table
 * with an `INDEXED BY` (`fromIndex`), where SQLite's planner would choose a worse index.
 *
 * @example
 * const page = await paginate(db, customers, "customer", scope, params);
 */
export async function paginate<T extends PagedTable, Row = T["$inferSelect"]>(
  db: Database,
  table: T,
  kind: IdKind,
  where: SQL | undefined,
  params: ListParams,
  columns?: Record<string, SQLiteColumn>,
  from?: SQL,
): Promise<Page<Row>> {
  const { limit, backwards, cursor, invalidCursor } = cursorOf(params);
  const source = from ?? (table as SQLiteTable);

  const select = from
    ? db.select(fieldsFrom(columns ?? getTableColumns(table), from))
    : columns
      ? db.select(columns)
      : db.select();
  const page = select
    .from(source as SQLiteTable)
    .where(
      and(where, cursor === undefined ? undefined : backwards ? gt(table.id, cursor) : lt(table.id, cursor)),
    )
    .orderBy(backwards ? asc(table.id) : desc(table.id))
    .limit(limit + 1);

  let rows: Row[];
  if (cursor === undefined) {
    rows = (await counted(db, page)) as Row[];
  } else {
    const invalid = invalidCursor();
    if (!isId(kind, cursor)) throw invalid;
    const check = db
      .select(fieldsFrom({ id: table.id }, from))
      .from(source as SQLiteTable)
      .where(and(where, eq(table.id, cursor)))
      .limit(1);
    const [found, pageRows] = await db.batch([check, page]);
    if (found.length === 0) throw invalid;
    rows = pageRows as Row[];
  }

  return pageOf(rows, limit, backwards);
}

/**
 * What `paginateByKey` orders and bounds a list by: `key` (a column), then the id.
 *
 * `lower` and `upper` are the request's range on `key` (SQL terms on it, e.g. `key >= ?` and
 * `key <= ?`), kept apart from `where` because the page after a cursor must leave out the one
 * the cursor replaces: SQLite takes a single bound per side of an index range, and given both
 * `key <= ?` and `(key, id) < (?, ?)` it may bound the scan by the first and filter by the
 * second, reading every entry between the range's end and the cursor.
 */
export type KeyOrder = { key: SQLiteColumn; lower?: SQL; upper?: SQL };

/**
 * `paginate` in `(key, id)` order, newest key first (the id breaking ties, newest first), for
 * a list filtered by a range on `key`: read through an `(scope…, key, id)` index, a page is
 * `limit + 1` index entries and rows wherever the range and the cursor lie (an `id` order
 * would read the range's rows and sort them). Cursors are still ids: the cursor's row (which
 * `where` and the range must select, or the request is a 400) gives its key, then the page is
 * the rows after `(key, id)` in the direction of travel, so equal keys page by id. Two round
 * trips after a cursor (its key is a value of the second query's range: a subquery there
 * bounds the index by the key alone, rereading the cursor's equal keys), one without. Rows
 * read: `limit + 1`; after a cursor `limit + 3` (its row, by primary key, and its own index
 * entry, where the seek lands before it steps past).
 *
 * `columns` and `from` are `paginate`'s.
 *
 * @example
 * await paginateByKey(db, invoices, "invoice", scope, { key: invoices.issueDate, lower: gte(invoices.issueDate, from) }, params);
 */
export async function paginateByKey<T extends PagedTable, Row = T["$inferSelect"]>(
  db: Database,
  table: T,
  kind: IdKind,
  where: SQL | undefined,
  order: KeyOrder,
  params: ListParams,
  columns?: Record<string, SQLiteColumn>,
  from?: SQL,
): Promise<Page<Row>> {
  const { limit, backwards, cursor, invalidCursor } = cursorOf(params);
  const { key, lower, upper } = order;
  const source = (from ?? table) as SQLiteTable;

  let after: SQL | undefined;
  if (cursor !== undefined) {
    if (!isId(kind, cursor)) throw invalidCursor();
    // By primary key, from the bare table: through `from`'s index it would scan the range.
    const [found] = await counted(
      db,
      db
        .select({ key })
        .from(table as SQLiteTable)
        .where(and(where, lower, upper, eq(table.id, cursor)))
        .limit(1),
    );
    if (found === undefined) throw invalidCursor();
    // A row value compared with values: SQLite bounds the index range with both columns.
    after = backwards
      ? sql`(${key}, ${table.id}) > (${found.key}, ${cursor})`
      : sql`(${key}, ${table.id}) < (${found.key}, ${cursor})`;
  }

  const select = from
    ? db.select(fieldsFrom(columns ?? getTableColumns(table), from))
    : columns
      ? db.select(columns)
      : db.select();
  const dir = backwards ? asc : desc;
  const rows = (await counted(
    db,
    select
      .from(source)
      // After a cursor, it bounds the side it replaces (it is within the range: checked above).
      .where(
        and(
          where,
          after === undefined || backwards ? upper : undefined,
          after === undefined || !backwards ? lower : undefined,
          after,
        ),
      )
      .orderBy(dir(key), dir(table.id))
      .limit(limit + 1),
  )) as Row[];
  return pageOf(rows, limit, backwards);
}

/**
 * `table INDEXED BY index`, for `paginate`'s `from`: SQLite then reads through that index or
 * fails the query ("no query solution"), so the query's WHERE must allow the index (a partial
 * index's WHERE, written as the index states it).
 *
 * @example
 * await paginate(db, invoices, "invoice", where, params, columns, fromIndex(invoices, "invoices_owed_list_idx"));
 */
export function fromIndex(table: SQLiteTable, index: string): SQL {
  return sql`${table} INDEXED BY ${sql.identifier(index)}`;
}

/**
 * The columns a select reads. Drizzle refuses a column whose table is not the FROM (a `from`
 * is SQL to it), so there each column is read as SQL decoded as the column decodes it.
 */
function fieldsFrom(columns: Record<string, SQLiteColumn>, from: SQL | undefined) {
  if (from === undefined) return columns;
  return Object.fromEntries(
    Object.entries(columns).map(([name, column]) => [name, sql`${column}`.mapWith(column)]),
  ) as unknown as Record<string, SQLiteColumn>;
}

/** What a list request asks: page size, direction, cursor; the error a bad cursor gets. */
export function cursorOf(params: ListParams) {
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw new ApiError(
      "parameter_invalid",
      "starting_after and ending_before are mutually exclusive: pass only one.",
      { param: "ending_before" },
    );
  }
  const backwards = params.ending_before !== undefined;
  const param = backwards ? "ending_before" : "starting_after";
  return {
    limit: params.limit ?? 25,
    backwards,
    cursor: params.ending_before ?? params.starting_after,
    invalidCursor: () =>
      new ApiError("parameter_invalid", `${param} must be the id of an object in this list.`, { param }),
  };
}

/** `limit + 1` rows read in the direction of travel → the page, newest first, and `has_more`. */
export function pageOf<Row>(rows: Row[], limit: number, backwards: boolean): Page<Row> {
  const has_more = rows.length > limit;
  const data = rows.slice(0, limit);
  if (backwards) data.reverse();
  return { data, has_more };
}

/**
 * The list envelope every list endpoint returns.
 *
 * @example
 * return c.json(listBody("/v1/customers", page, serializeCustomer));
 */
export function listBody<Row, Out>(url: string, page: Page<Row>, serialize: (row: Row) => Out) {
  return { object: "list" as const, url, has_more: page.has_more, data: page.data.map(serialize) };
}
