import { eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { eventDestinations, events } from "../db/schema";
import type { Caller } from "../env";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import type { EventType, RelatedObjectType } from "./types";

type Related = { id: string; object: RelatedObjectType };

/**
 * The insert of an event, for the same `db.batch` as the write it records: a batch is one
 * transaction, so there is no event without its change and no change without its event.
 *
 * With `whileExists`, the event is written only if that row exists at that point of the
 * batch (`INSERT … SELECT … FROM <table> WHERE id = ?`): an update or delete that matched
 * nothing, because of a concurrent delete, records nothing.
 *
 * The event is born dispatched when its account and environment have no enabled
 * destination (decided inside the same transaction), so the common write costs no further
 * D1 round trip; `query` returns `dispatched_at` to say which case it was.
 *
 * @example
 * const event = recordEvent(db, caller, "customer.updated", customer, { whileExists: [customers, customers.id] });
 * const [, written] = await db.batch([update, event.query]);
 * dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
 */
export function recordEvent(
  db: Database,
  caller: Caller,
  type: EventType,
  object: Related,
  options: { whileExists?: [SQLiteTable, SQLiteColumn] } = {},
) {
  const row = {
    id: newId("event"),
    accountId: caller.accountId,
    live: caller.live,
    type,
    data: JSON.stringify(object),
    relatedObjectId: object.id,
    relatedObjectType: object.object,
    createdAt: nowIso(),
    dispatchedAt: null,
  };
  const d = eventDestinations;
  const dispatchedAt = sql`CASE WHEN EXISTS (SELECT 1 FROM ${d} WHERE ${d.accountId} = ${row.accountId} AND ${d.live} = ${row.live ? 1 : 0} AND ${d.status} = 'enabled') THEN NULL ELSE ${row.createdAt} END`;
  const returning = { dispatchedAt: events.dispatchedAt };
  if (!options.whileExists) {
    return {
      id: row.id,
      row,
      query: db
        .insert(events)
        .values({ ...row, dispatchedAt })
        .returning(returning),
    };
  }

  const [table, column] = options.whileExists;
  const value = (v: string | number | null) => sql`${v}`;
  const query = db
    .insert(events)
    .select(
      db
        .select({
          id: value(row.id).as("id"),
          accountId: value(row.accountId).as("account_id"),
          live: value(row.live ? 1 : 0).as("live"),
          type: value(row.type).as("type"),
          data: value(row.data).as("data"),
          relatedObjectId: value(row.relatedObjectId).as("related_object_id"),
          relatedObjectType: value(row.relatedObjectType).as("related_object_type"),
          createdAt: value(row.createdAt).as("created_at"),
          dispatchedAt: sql`${dispatchedAt}`.as("dispatched_at"),
        })
        .from(table)
        .where(eq(column, object.id)),
    )
    .returning(returning);
  return { id: row.id, row, query };
}
