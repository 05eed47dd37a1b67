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
 * deploy in progress) is retried, never worked on the wrong database.
 */
export async function perShard<B>(
  batch: MessageBatch<B>,
  env: Env,
  handle: (batch: MessageBatch<B>, env: Env) => Promise<void>,
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
