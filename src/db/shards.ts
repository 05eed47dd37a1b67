/**
 * Accounts live on shards: several D1 databases with the same schema, each holding whole
 * accounts (their customers, invoices, counters, events, balance). `SHARDS` lists the D1
 * bindings that are shards ("DB,DB_2"); the directory (`DIRECTORY`: API key hash → account →
 * shard) tells a request which one is its caller's. Adding a shard is configuration: a
 * `[[d1_databases]]` binding, its name in `SHARDS`, and the migrations applied to it.
 *
 * Code below the router never names a database: it is given the environment of one shard
 * (`shardEnv`), whose `DB` is that shard's database and whose queue producers stamp the shard
 * on every message, so that a consumer (and the next attempt it queues) works on the shard the
 * message came from.
 */

import type { DeliveryMessage } from "../contracts/delivery-message";
import type { PdfMessage } from "../contracts/pdf-message";
import type { ShardStamp } from "../contracts/shard-stamp";
import type { SubmissionMessage } from "../contracts/submission-message";
import type { VerificationMessage } from "../contracts/verification-message";

const NAME = /^[A-Z][A-Z0-9_]*$/;

const listed = new WeakMap<object, readonly string[]>();

/**
 * The shards' binding names, first the default one (where messages without a shard belong).
 * A name that is not a D1 binding of this Worker stops it: a misrouted account must never
 * look empty.
 *
 * @example
 * shardNames(env); // ["DB", "DB_2"] with SHARDS = "DB,DB_2"
 */
export function shardNames(env: Env): readonly string[] {
  const base = baseEnv(env);
  let names = listed.get(base);
  if (!names) {
    names = Object.freeze(
      String(base.SHARDS ?? "DB")
        .split(",")
        .map((name) => name.trim()),
    );
    for (const name of names) {
      const binding = (base as unknown as Record<string, unknown>)[name];
      if (!NAME.test(name) || typeof (binding as D1Database | undefined)?.withSession !== "function") {
        throw new Error(`Invalid configuration: SHARDS: ${name} is not a D1 binding of this Worker`);
      }
    }
    listed.set(base, names);
  }
  return names;
}

const SHARD = Symbol("shard");
type ShardEnv = Env & { [SHARD]: { base: Env } };

function baseEnv(env: Env): Env {
  return (env as Partial<ShardEnv>)[SHARD]?.base ?? env;
}

const views = new WeakMap<object, Map<string, Env>>();

/**
 * The environment of one shard: the Worker's bindings, with `DB` that shard's database and
 * each queue producer stamping `shard` on what it sends. One object per shard and isolate, so
 * what is cached per environment (the parsed config) is parsed once.
 *
 * @example
 * await sweepUndispatched(shardEnv(env, "DB_2")); // reads DB_2, queues messages marked DB_2
 */
export function shardEnv(env: Env, name: string): Env {
  const base = baseEnv(env);
  if (!shardNames(base).includes(name)) throw new Error(`Unknown shard ${name}: not in SHARDS`);
  let byName = views.get(base);
  if (!byName) {
    byName = new Map();
    views.set(base, byName);
  }
  let view = byName.get(name);
  if (!view) {
    const value = (v: unknown) => ({ value: v, enumerable: true });
    view = Object.create(base, {
      [SHARD]: { value: { base } },
      DB: value((base as unknown as Record<string, D1Database>)[name]),
      WEBHOOKS: value(stamped<DeliveryMessage>(base.WEBHOOKS, name)),
      VERIFICATIONS: value(stamped<VerificationMessage>(base.VERIFICATIONS, name)),
      VERIFACTU_SUBMISSIONS: value(stamped<SubmissionMessage>(base.VERIFACTU_SUBMISSIONS, name)),
      INVOICE_PDFS: value(stamped<PdfMessage>(base.INVOICE_PDFS, name)),
    }) as Env;
    byName.set(name, view);
  }
  return view;
}

/** A producer that adds `shard` to every body it sends. */
function stamped<T>(queue: Queue<T>, shard: string): Queue<T> {
  const stamp = (body: T) => ({ ...body, shard }) as T;
  return {
    send: (body, options) => queue.send(stamp(body), options),
    sendBatch: (messages, options) =>
      queue.sendBatch(
        [...messages].map((m) => ({ ...m, body: stamp(m.body) })),
        options,
      ),
    metrics: () => queue.metrics(),
  } as Queue<T>;
}

/**
 * Runs `handle` once per shard named in the batch's messages, each with that shard's
 * environment and its own messages. A message naming a shard this Worker does not have (a
 * deploy in progress) is retried, never worked on the wrong database. With more than one
 * shard, a message whose account the directory now places on another shard (moved since the
 * message was queued) is run there instead (`followMoves`): no message is lost to a move.
 */
export async function perShard<B>(
  batch: MessageBatch<B>,
  env: Env,
  handle: (batch: MessageBatch<B>, env: Env) => Promise<void>,
  /** Told when following moved accounts fails (db/ sits below the log module: the caller logs). */
  onFollowError: (err: unknown) => void = () => {},
): Promise<void> {
  const names = shardNames(env);
  const groups = new Map<string, Message<B>[]>();
  for (const message of batch.messages) {
    const shard = (message.body as ShardStamp | null)?.shard ?? names[0];
    if (typeof shard !== "string" || !names.includes(shard)) {
      message.retry({ delaySeconds: 60 });
      continue;
    }
    const group = groups.get(shard);
    if (group) group.push(message);
    else groups.set(shard, [message]);
  }
  if (names.length > 1 && groups.size > 0) {
    // Unreadable (a D1 error): every message runs on its stamped shard, as it would without moves.
    await followMoves(groups, env, names).catch(onFollowError);
  }
  await Promise.all(
    [...groups].map(([shard, messages]) =>
      handle(
        {
          queue: batch.queue,
          metadata: batch.metadata,
          messages,
          ackAll: () => {
            for (const m of messages) m.ack();
          },
          retryAll: (options) => {
            for (const m of messages) m.retry(options);
          },
        },
        shardEnv(env, shard),
      ),
    ),
  );
}

/**
 * What a message is about, by its body (src/contracts/*-message.ts): an account (a VERI*FACTU
 * chain), or a row of the account's whose `account_id` says whose it is (an invoice's PDF, a
 * Tax ID's check, an event's delivery).
 */
function subjectOf(body: unknown): { account: string } | { table: string; id: string } | undefined {
  const b = body as Record<string, unknown> | null;
  if (typeof b?.account_id === "string") return { account: b.account_id };
  if (typeof b?.invoice_id === "string") return { table: "invoices", id: b.invoice_id };
  if (typeof b?.tax_id_id === "string") return { table: "tax_ids", id: b.tax_id_id };
  if (typeof b?.event_id === "string") return { table: "events", id: b.event_id };
  return undefined;
}

/** D1 binds at most 100 parameters a statement. */
const IN_CHUNK = 100;

/** `SELECT <columns> FROM <table> WHERE <key> IN (…ids)` in chunks, every row. */
async function rowsIn(
  db: D1Database,
  columns: string,
  table: string,
  key: string,
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    const { results } = await db
      .prepare(`SELECT ${columns} FROM ${table} WHERE ${key} IN (${chunk.map(() => "?").join(", ")})`)
      .bind(...chunk)
      .all<Record<string, unknown>>();
    rows.push(...results);
  }
  return rows;
}

/**
 * Moves each message of `groups` (shard → its messages) whose account the directory places on
 * another shard into that shard's group. A message is stamped with the shard its account was on
 * when it was queued; `npm run account:move` may have moved the account since (the rows are
 * then on the new shard, and gone from the old one once the move finished): the consumer on the
 * old shard would find nothing and drop it, or record its result where the account no longer
 * lives. The message's account comes from its body, or from its row on the stamped shard, or,
 * when that shard no longer has the row, from the other shards (read only then: a row deleted
 * in the meantime costs a read per shard). The directory, read once per batch from the primary,
 * decides for an account that lived on the stamped shard (its `accounts` row, which a move
 * leaves behind with the ledger, is still there). A message whose account the directory does
 * not know, or never lived on the stamped shard (a wrong stamp), stays there and finds nothing;
 * one whose account is still moving stays too (the move's drain sees the work it leaves).
 */
async function followMoves<B>(groups: Map<string, Message<B>[]>, env: Env, names: readonly string[]) {
  const base = baseEnv(env);
  const db = (shard: string) => (base as unknown as Record<string, D1Database>)[shard] as D1Database;
  const accountOf = new Map<Message<B>, string>();
  for (const [shard, messages] of groups) {
    const wanted = new Map<string, Map<string, Message<B>[]>>(); // table → id → messages
    for (const message of messages) {
      const subject = subjectOf(message.body);
      if (!subject) continue;
      if ("account" in subject) {
        accountOf.set(message, subject.account);
        continue;
      }
      const ids = wanted.get(subject.table) ?? new Map<string, Message<B>[]>();
      wanted.set(subject.table, ids);
      ids.set(subject.id, [...(ids.get(subject.id) ?? []), message]);
    }
    for (const [table, ids] of wanted) {
      let missing = [...ids.keys()];
      for (const where of [shard, ...names.filter((name) => name !== shard)]) {
        if (missing.length === 0) break;
        const rows = await rowsIn(db(where), "id, account_id", table, "id", missing);
        for (const row of rows) {
          for (const message of ids.get(String(row.id)) ?? []) accountOf.set(message, String(row.account_id));
        }
        const found = new Set(rows.map((row) => String(row.id)));
        missing = missing.filter((id) => !found.has(id));
      }
    }
  }
  if (accountOf.size === 0) return;
  const places = new Map(
    (
      await rowsIn(base.DIRECTORY, "account_id, shard", "directory_accounts", "account_id", [
        ...new Set(accountOf.values()),
      ])
    ).map((row) => [String(row.account_id), String(row.shard)]),
  );
  const moved: [string, Message<B>][] = [];
  for (const [shard, messages] of [...groups]) {
    const elsewhere = (message: Message<B>) => {
      const account = accountOf.get(message);
      const place = account === undefined ? undefined : places.get(account);
      return place !== undefined && place !== shard && names.includes(place) ? place : undefined;
    };
    const candidates = [...new Set(messages.filter(elsewhere).map((m) => accountOf.get(m) as string))];
    const lived =
      candidates.length === 0
        ? new Set<string>()
        : new Set((await rowsIn(db(shard), "id", "accounts", "id", candidates)).map((row) => String(row.id)));
    const staying = messages.filter((message) => {
      const place = elsewhere(message);
      if (place === undefined || !lived.has(accountOf.get(message) as string)) return true;
      moved.push([place, message]);
      return false;
    });
    if (staying.length > 0) groups.set(shard, staying);
    else groups.delete(shard);
  }
  for (const [place, message] of moved) {
    const group = groups.get(place);
    if (group) group.push(message);
    else groups.set(place, [message]);
  }
}
