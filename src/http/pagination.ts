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
