import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { EventType, RelatedObjectType } from "../constants";
import type { Database } from "../db/client";
import { type EventDestinationRow, type EventRow, eventDestinations, events } from "../db/schema";
import { fencedWrite } from "../http/idempotency";
import { nowIso } from "../lib/clock";
import type { Slots } from "../lib/connections";
import { newId } from "../lib/ids";
import { dispatchAfterWrite } from "../webhooks/first-attempt";

/** An account's environment: the slice of data a write belongs to. */
export type Scope = { accountId: string; live: boolean };

/** What a write needs from its runtime: a route builds it with `writerOf(c)`, a consumer from its env. */
export type Writer = {
  db: Database;
  env: Env;
  scope: Scope;
  /** Keeps the isolate alive for the fan-out after the response (`ctx.waitUntil`). */
  waitUntil(promise: Promise<unknown>): void;
  /** The invocation's outbound connections, which the write's first attempts take (src/lib/connections.ts). */
  slots: Slots;
  /**
   * A request's `Idempotency-Key` guard and mark, written in the same batch as the write
   * (src/http/idempotency.ts). For one write per request: a second would find the key marked
   * and fail as taken over.
   */
  idempotencyMark?: Statement[];
  /** A request's write budget, bytes a day (src/http/write-budget.ts); none for the consumers' and cron's writes. */
  budget?: number;
};

export type EventSpec = {
  /** The event's id when the caller needs it before the batch (a debit's `source_event`). */
  id?: string;
  type: EventType;
  /** The related object as the API shows it now: the event's immutable `data.object`. */
  object: { id: string; object: RelatedObjectType } | { object: "verifactu_status" };
  /** The related object when `object` is another (a status of the account). */
  related?: { id: string; object: RelatedObjectType };
  /**
   * Records the event only if this row (`table`, its id column) exists at that point of the
   * transaction: an update or delete that lost a race with a concurrent delete records nothing.
   * A third element narrows it to a state of that row (a Tax ID verification still pending).
   */
  whileExists?: [SQLiteTable, SQLiteColumn] | [SQLiteTable, SQLiteColumn, SQL];
  /** Values of `object` only the database knows yet, by JSON path (an invoice's number). */
  fill?: Record<string, SQL>;
};

type Statement = BatchItem<"sqlite">;
type Statements = Record<string, Statement>;

export type WriteResult<S extends Statements> = {
  /** Each statement's result under its name. */
  results: { [K in keyof S]: Awaited<S[K]> };
  /** Per event spec, in order: its id and whether it was written (a `whileExists` guard can skip it). */
  events: { id: string; recorded: boolean }[];
};

const EVENT_COLUMNS = getTableColumns(events);

/**
 * The one way a change and its events are written: one `db.batch` (one transaction, so no
 * event without its change and no change without its events), then the new events' first
 * delivery attempts after the response (`first-attempt.ts`). If those never finish, the cron
 * sweep queues the events.
 *
 * The events go first in the batch: a `whileExists` guard must see the row before the
 * statement that deletes it; for every other statement the order inside one transaction
 * does not matter.
 *
 * An event is born dispatched when no enabled destination of its account and environment
 * subscribes to its type (decided inside the same transaction), so the common write costs no
 * further D1 round trip.
 *
 * @example
 * const { results } = await writeWithEvents(writerOf(c), { updated: db.update(…).returning() }, {
 *   type: "customer.updated", object: customer, whileExists: [customers, customers.id],
 * });
 */
export async function writeWithEvents<S extends Statements>(
  w: Writer,
  statements: S,
  ...specs: EventSpec[]
): Promise<WriteResult<S>> {
  const rows = specs.map((spec) => eventRow(w.scope, spec));
  const d = eventDestinations;
  // One fenced batch (the request's idempotency mark with it, http/idempotency.ts): the events
  // first (above), the statements, then the fan-out's listeners, read in the same round trip
  // (none in the common case) so that the first attempts leave without a further read.
  const events = Object.fromEntries(
    specs.map((spec, i) => [`event ${i}`, eventInsert(w.db, rows[i] as EventRow, spec)]),
  );
  const out = await fencedWrite(w, {
    ...events,
    ...statements,
    "event listeners": w.db
      .select()
      .from(d)
      .where(and(eq(d.accountId, w.scope.accountId), eq(d.live, w.scope.live), eq(d.status, "enabled"))),
  });
  const written = rows.map((_, i) => out[`event ${i}`] as { dispatchedAt: string | null }[]);
  const toDispatch = rows.filter((_, i) => written[i]?.[0]?.dispatchedAt === null);
  if (toDispatch.length > 0) {
    const listeners = out["event listeners"] as EventDestinationRow[];
    w.waitUntil(dispatchAfterWrite(w.env, toDispatch, listeners, w.slots));
  }
  return {
    results: Object.fromEntries(
      Object.keys(statements).map((name) => [name, out[name]]),
    ) as WriteResult<S>["results"],
    events: rows.map((row, i) => ({ id: row.id, recorded: (written[i]?.length ?? 0) > 0 })),
  };
}

const relatedOf = (spec: EventSpec) =>
  spec.related ?? (spec.object as { id: string; object: RelatedObjectType });

function eventRow(scope: Scope, spec: EventSpec): EventRow {
  const related = relatedOf(spec);
  return {
    id: spec.id ?? newId("event"),
    accountId: scope.accountId,
    live: scope.live,
    type: spec.type,
    data: JSON.stringify(spec.object),
    relatedObjectId: related.id,
    relatedObjectType: related.object,
    createdAt: nowIso(),
    dispatchedAt: null,
    sweptAt: null,
  };
}

/**
 * The event's INSERT, with `dispatched_at` decided by the database in the same transaction:
 * null (waiting for its fan-out) only when an enabled destination of its account and
 * environment subscribes to its type (`subscribed` of the fan-out, in SQL).
 */
function eventInsert(db: Database, row: EventRow, spec: EventSpec) {
  const d = eventDestinations;
  const listened = sql`EXISTS (SELECT 1 FROM ${d}, json_each(${d.enabledEvents}) AS e WHERE ${d.accountId} = ${row.accountId} AND ${d.live} = ${row.live ? 1 : 0} AND ${d.status} = 'enabled' AND e.value IN ('*', ${row.type}))`;
  const dispatchedAt = sql`CASE WHEN ${listened} THEN NULL ELSE ${row.createdAt} END`;
  const fills = Object.entries(spec.fill ?? {}).flatMap(([path, value]) => [sql`${path}`, value]);
  const data = fills.length ? sql`json_set(${row.data}, ${sql.join(fills, sql`, `)})` : sql`${row.data}`;
  const returning = { dispatchedAt: events.dispatchedAt };
  if (!spec.whileExists) {
    return db
      .insert(events)
      .values({ ...row, data, dispatchedAt })
      .returning(returning);
  }
  // INSERT … SELECT <the same values> FROM <table> WHERE id = ?: the column names come from
  // the table definition, so this cannot drift from `values` above.
  const fields = {} as Record<keyof EventRow, SQL.Aliased>;
  for (const [key, value] of Object.entries(row)) {
    const column = EVENT_COLUMNS[key as keyof EventRow];
    const expression =
      key === "dispatchedAt" ? dispatchedAt : key === "data" ? data : sql`${column.mapToDriverValue(value)}`;
    fields[key as keyof EventRow] = expression.as(column.name);
  }
  const [table, idColumn, state] = spec.whileExists;
  return db
    .insert(events)
    .select(
      db
        .select(fields)
        .from(table)
        .where(and(eq(idColumn, relatedOf(spec).id), state)),
    )
    .returning(returning);
}
