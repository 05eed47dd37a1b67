import { ID_PREFIX, type IdKind, newId } from "../lib/ids";

/**
 * Record and replay of one API request's D1 batches, for the benchmark floors of writes: the
 * floor runs the very statements the API ran (same SQL, same values, same tables, indexes and
 * rows), as raw D1 batches with no framework, with every id the request created replaced by a
 * fresh one of its kind, so that each replay writes new rows as the API's own requests do.
 */

type Param = string | number | boolean | null | ArrayBuffer;
/** A recorded value: as it was, or a string cut around the ids it holds (even indexes literal). */
type Part = { value: Param } | { cut: string[] };
type Statement = { sql: string; params: Part[] };

export type Recording = {
  batches: Statement[][];
  /** The API's response, which the floor answers with byte for byte. */
  status: number;
  body: string;
  contentType: string;
  /** Values the write must make unique besides ids (a customer's generated `invoice_prefix`). */
  fresh: string[];
};

const RECORDED = Symbol("recorded");
const ID = /\b([a-z]+)_([0-9A-HJKMNP-TV-Z]{10})([0-9A-HJKMNP-TV-Z]{16})\b/g;
const KIND_OF = new Map<string, IdKind>(
  Object.entries(ID_PREFIX).map(([kind, prefix]) => [prefix, kind as IdKind]),
);
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const msOf = (time: string) => [...time].reduce((ms, ch) => ms * 32 + CROCKFORD.indexOf(ch), 0);

type Raw = { sql: string; params: Param[] };
type Bindable = D1PreparedStatement & { [RECORDED]?: Raw };

/**
 * `env` with its D1 binding wrapped so that every batch run through it is appended to
 * `batches` (the SQL and the bound values of each statement), sessions included.
 */
export function recordingEnv(env: Env, batches: Raw[][]): Env {
  const wrap = <T extends D1Database | D1DatabaseSession>(d1: T): T =>
    new Proxy(d1, {
      get(target, prop) {
        if (prop === "withSession") {
          return (...args: unknown[]) => wrap((target as D1Database).withSession(...(args as [])));
        }
        if (prop === "prepare") {
          return (sql: string) => {
            const statement = target.prepare(sql) as Bindable;
            const bind = statement.bind.bind(statement);
            statement[RECORDED] = { sql, params: [] };
            statement.bind = (...params: unknown[]) => {
              const bound = bind(...params) as Bindable;
              bound[RECORDED] = { sql, params: params as Param[] };
              return bound;
            };
            return statement;
          };
        }
        if (prop === "batch") {
          return (statements: Bindable[]) => {
            batches.push(statements.map((s) => s[RECORDED] ?? { sql: "(unrecorded)", params: [] }));
            return target.batch(statements);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return { ...env, DB: wrap(env.DB) };
}

/**
 * The replayable form of what a request ran: each string value cut around the ids created at
 * or after `since` (an id's first 10 characters are its millisecond), which a replay renews.
 */
export function compile(batches: Raw[][], since: number): Statement[][] {
  const created = (time: string) => msOf(time) >= since;
  return batches.map((batch) =>
    batch.map(({ sql, params }) => ({
      sql,
      params: params.map((value): Part => {
        if (typeof value !== "string") return { value };
        const cut: string[] = [];
        let last = 0;
        for (const m of value.matchAll(ID)) {
          if (!KIND_OF.has(m[1] as string) || !created(m[2] as string)) continue;
          cut.push(value.slice(last, m.index), m[0]);
          last = (m.index ?? 0) + m[0].length;
        }
        if (cut.length === 0) return { value };
        cut.push(value.slice(last));
        return { cut };
      }),
    })),
  );
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const freshLike = (value: string) =>
  Array.from(crypto.getRandomValues(new Uint8Array(value.length)), (b) => LETTERS[b % 24]).join("");

/**
 * Runs a recording's batches again, in order, each as one raw D1 batch, with a fresh id for
 * every id the recorded request created (the same fresh id wherever the old one appeared) and a
 * fresh value for each of `fresh`. Returns the new ids by old id, and D1's counts.
 */
export async function replay(d1: D1Database, recording: Recording) {
  const ids = new Map<string, string>();
  const renew = (old: string) => {
    let id = ids.get(old);
    if (id === undefined) {
      id = newId(KIND_OF.get(old.slice(0, old.indexOf("_"))) as IdKind);
      ids.set(old, id);
    }
    return id;
  };
  const fresh = new Map(recording.fresh.map((value) => [value, freshLike(value)]));
  const usage = { rowsRead: 0, rowsWritten: 0, roundTrips: 0 };
  for (const batch of recording.batches) {
    const statements = batch.map(({ sql, params }) =>
      d1.prepare(sql).bind(
        ...params.map((p) => {
          if ("value" in p) return typeof p.value === "string" ? (fresh.get(p.value) ?? p.value) : p.value;
          return p.cut.map((s, i) => (i % 2 === 1 ? renew(s) : s)).join("");
        }),
      ),
    );
    const results = await d1.batch(statements);
    usage.roundTrips++;
    for (const r of results) {
      usage.rowsRead += r.meta.rows_read ?? 0;
      usage.rowsWritten += r.meta.rows_written ?? 0;
    }
  }
  return { ids, usage };
}
