import { and, eq, isNull } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { Caller } from "../contracts/caller";
import { counted, createDb, type DbUsage } from "../db/client";
import { apiKeys, directoryAccounts } from "../db/schema";
import { READS } from "../db/session";
import { shardEnv } from "../db/shards";
import { sha256Hex } from "../lib/crypto";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { KeyCache } from "./key-cache";
import { limitAddress, limitCaller, refuseIfAddressLimited } from "./rate-limit";

const KEY_FORMAT = /^sk_(test|live)_[A-Za-z0-9_-]{8,120}$/;

// Per isolate; bounded, so random keys cannot grow it without limit.
const keys = new KeyCache(1_000);

/** What a write to a moving account is told to wait: a move takes minutes, not hours. */
const MOVING_RETRY_AFTER_SECONDS = 60;

function unauthorized(code: "api_key_missing" | "api_key_invalid", message: string): ApiError {
  return new ApiError(code, message, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });
}

/**
 * Responses of authenticated routes, errors included, hold account data or tell whether a
 * key works: no cache may keep them. Runs outside `auth`, so its 401s and 429s get it too.
 */
export const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
};

/**
 * `Authorization: Bearer sk_test_…|sk_live_…`. The prefix selects the environment; the
 * key is looked up by its SHA-256 (the secret itself is never stored) in the directory, which
 * also names the account's shard: the rest of the request sees that shard's environment
 * (`c.env.DB` is its database). A known key counts against its own rate limit and its account's
 * in its environment (a large body counting more); a missing, malformed or unknown one against
 * the client address's, checked before the D1 lookup when the address is already over it.
 */
export const auth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("authorization");
  const key = header ? /^Bearer ([^\s]+)$/i.exec(header.trim())?.[1] : undefined;
  if (!key || !KEY_FORMAT.test(key)) {
    await limitAddress(c);
    if (!header) {
      throw unauthorized(
        "api_key_missing",
        "You did not provide an API key. Send it as `Authorization: Bearer sk_test_…`.",
      );
    }
    throw unauthorized(
      "api_key_invalid",
      "Invalid API key: send `Authorization: Bearer <key>` with a key that starts sk_test_ or sk_live_.",
    );
  }
  const hash = await sha256Hex(key);
  let caller = keys.get(hash);
  if (caller === undefined) {
    refuseIfAddressLimited(c);
    caller = await lookup(c.env.DIRECTORY, c.get("dbUsage"), key, hash);
  }
  if (!caller) {
    await limitAddress(c);
    throw unauthorized("api_key_invalid", "Invalid API key provided.");
  }
  await limitCaller(c, hash, caller);
  if (caller.moving && !READS.has(c.req.method)) {
    throw new ApiError(
      "account_moving",
      "This account is being moved to another database: writes are paused for a few minutes. Retry after the Retry-After seconds; reads keep working.",
      { headers: { "Retry-After": String(MOVING_RETRY_AFTER_SECONDS) } },
    );
  }
  c.set("caller", caller);
  c.env = shardEnv(c.env, caller.shard);
  await next();
};

/**
 * The directory's answer for a key hash. Read from the nearest replica: a key minted or revoked
 * a moment ago is seen within the replica's lag (seconds), like the cache's 30 s.
 */
async function lookup(
  directory: D1Database,
  usage: DbUsage,
  key: string,
  hash: string,
): Promise<Caller | null> {
  const db = createDb(directory.withSession("first-unconstrained"), usage);
  const d = directoryAccounts;
  const rows = await counted(
    db,
    db
      .select({
        accountId: apiKeys.accountId,
        live: apiKeys.live,
        taxRegime: d.taxRegime,
        shard: d.shard,
        movingSince: d.movingSince,
      })
      .from(apiKeys)
      .innerJoin(d, eq(d.accountId, apiKeys.accountId))
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1),
  );
  const row = rows[0];
  // The hash covers the prefix, so a stored key's `live` always matches it; check anyway.
  const caller =
    row && row.live === key.startsWith("sk_live_")
      ? {
          accountId: row.accountId,
          live: row.live,
          taxRegime: row.taxRegime,
          shard: row.shard,
          moving: row.movingSince !== null,
        }
      : null;

  keys.remember(hash, caller);
  return caller;
}
