import type { Context, MiddlewareHandler } from "hono";
import { config } from "../config";
import type { Caller } from "../contracts/caller";
import { nowMs } from "../lib/clock";
import { logError } from "../lib/log";
import { MAX_BODY_BYTES } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { mappedIPv4, parseIPv6 } from "./ip";

/**
 * The `[[ratelimits]]` bindings of wrangler.toml and the period, in seconds, each counts
 * over (the limits themselves live only there, per deployment). The binding does not say when
 * its window ends, but after one period the count has started over, so the period is an
 * honest `Retry-After`. A test holds these equal to wrangler.toml.
 */
export const RATE_LIMIT_PERIODS = {
  /** Authenticated requests, per API key: one leaked key is bounded on its own. */
  KEY_RATE_LIMITER: 10,
  /** Authenticated Live requests, per account (`<account>:live`), whichever of its keys sends them. */
  ACCOUNT_LIVE_RATE_LIMITER: 10,
  /** Authenticated Test requests, per account (`<account>:test`), whichever of its keys sends them. */
  ACCOUNT_TEST_RATE_LIMITER: 10,
  /** Requests with a missing, malformed or unknown key, per client address. */
  ADDRESS_RATE_LIMITER: 10,
  /** The public tax-regime catalog, per client address. */
  CATALOG_RATE_LIMITER: 10,
} as const satisfies Record<string, 10 | 60>;

export type LimiterName = keyof typeof RATE_LIMIT_PERIODS;

/** The address of every caller that comes without `CF-Connecting-IP`: only off Cloudflare. */
export const LOCAL_ADDRESS = "local";

const MESSAGES: Record<LimiterName, string> = {
  KEY_RATE_LIMITER: "Too many requests with this API key",
  ACCOUNT_LIVE_RATE_LIMITER: "Too many Live requests for this account (all its keys together)",
  ACCOUNT_TEST_RATE_LIMITER: "Too many Test requests for this account (all its keys together)",
  ADDRESS_RATE_LIMITER: "Too many requests without a valid API key from this address",
  CATALOG_RATE_LIMITER: "Too many requests from this address",
};

function rateLimited(limiter: LimiterName, retryAfterSeconds: number): ApiError {
  return new ApiError("rate_limited", `${MESSAGES[limiter]}: retry after ${retryAfterSeconds} seconds.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/**
 * The caller as the address limiters count it: `CF-Connecting-IP`, which Cloudflare sets
 * and overwrites. An IPv6 address counts as its /64, since one subscriber usually holds a
 * whole /64 and could otherwise rotate through it.
 *
 * @example
 * clientAddress(c); // "203.0.113.7", "2001:db8:1:2::/64", or "local" under `npm start`
 */
export function clientAddress(c: Context<AppEnv>): string {
  const address = c.req.header("cf-connecting-ip");
  if (!address) return LOCAL_ADDRESS;
  const v6 = parseIPv6(address);
  if (!v6) return address;
  const v4 = mappedIPv4(v6);
  if (v4) return v4.join(".");
  const groups = [0, 2, 4, 6].map((i) => (((v6[i] as number) << 8) | (v6[i + 1] as number)).toString(16));
  return `${groups.join(":")}::/64`;
}

/**
 * Counts `units` requests for `key` against `limiter` (the binding counts one per `limit()`
 * call, so a weighted request makes that many calls, concurrently); over the limit, throws 429
 * `rate_limited` with `Retry-After`.
 *
 * @example
 * await consume(c, "KEY_RATE_LIMITER", keyHash);
 */
export async function consume(
  c: Context<AppEnv>,
  limiter: LimiterName,
  key: string,
  units = 1,
): Promise<void> {
  if (!config(c.env).rateLimits) return;
  let outcomes: RateLimitOutcome[];
  try {
    const binding = c.env[limiter];
    outcomes = await Promise.all(Array.from({ length: units }, () => binding.limit({ key })));
  } catch (err) {
    // Fail open: a limiter outage must not take the API down with it.
    logError("rate_limiter_unavailable", err, { request_id: c.get("requestId"), code: limiter });
    return;
  }
  if (outcomes.some((o) => !o.success)) throw rateLimited(limiter, RATE_LIMIT_PERIODS[limiter]);
}

/** A request body counts one unit per started 64 KiB (docs/api-conventions.md#rate-limits). */
export const WEIGHT_UNIT_BYTES = 64 * 1024;

/** The most a request counts: a body of `MAX_BODY_BYTES`, the largest the API accepts (1 MiB). */
export const MAX_WEIGHT = Math.ceil(MAX_BODY_BYTES / WEIGHT_UNIT_BYTES);

/**
 * How many units a request counts: one, or one per started 64 KiB of its body, by
 * `Content-Length` (the body is read after the limits, by the body guard). A body sent
 * without one (chunked) cannot be measured up front, so it counts as the largest.
 *
 * @example
 * requestWeight(c); // 1 for a GET or a body ≤ 64 KiB, 3 for 150 KB, 16 for 1 MiB or chunked
 */
export function requestWeight(c: Context<AppEnv>): number {
  const length = c.req.header("content-length");
  if (length === undefined) return c.req.raw.body === null ? 1 : MAX_WEIGHT;
  const bytes = Number(length);
  if (!Number.isSafeInteger(bytes) || bytes < 0) return MAX_WEIGHT;
  return Math.min(MAX_WEIGHT, Math.max(1, Math.ceil(bytes / WEIGHT_UNIT_BYTES)));
}

/**
 * An authenticated request's limits, each counting its weight: its key's (a key over it does
 * not count against its account), then its account's in the key's environment, shared by all
 * the account's keys of that environment so that more keys do not buy a larger budget.
 *
 * @example
 * await limitCaller(c, keyHash, caller);
 */
export async function limitCaller(
  c: Context<AppEnv>,
  keyHash: string,
  caller: Pick<Caller, "accountId" | "live">,
): Promise<void> {
  const units = requestWeight(c);
  await consume(c, "KEY_RATE_LIMITER", keyHash, units);
  const environment = caller.live ? "live" : "test";
  const limiter = caller.live ? "ACCOUNT_LIVE_RATE_LIMITER" : "ACCOUNT_TEST_RATE_LIMITER";
  await consume(c, limiter, `${caller.accountId}:${environment}`, units);
}

// Addresses the address limiter turned away, until their period ends. While listed, a key
// this isolate has not cached is refused before the D1 lookup the limit is there to spare.
const REFUSED_MAX = 1_000;
const refused = new Map<string, number>();

/** Counts a request with a missing, malformed or unknown key against its address. */
export async function limitAddress(c: Context<AppEnv>): Promise<void> {
  const address = clientAddress(c);
  try {
    await consume(c, "ADDRESS_RATE_LIMITER", address);
  } catch (err) {
    if (refused.size >= REFUSED_MAX) refused.delete(refused.keys().next().value as string);
    refused.set(address, nowMs() + RATE_LIMIT_PERIODS.ADDRESS_RATE_LIMITER * 1000);
    throw err;
  }
}

/** 429 when the caller's address was turned away within its period (no limiter call). */
export function refuseIfAddressLimited(c: Context<AppEnv>): void {
  const address = clientAddress(c);
  const until = refused.get(address);
  if (until === undefined) return;
  const left = until - nowMs();
  if (left > 0) throw rateLimited("ADDRESS_RATE_LIMITER", Math.ceil(left / 1000));
  refused.delete(address);
}

/** The public catalog's limit, per client address (`/health` stays a static, unlimited floor). */
export const limitCatalog: MiddlewareHandler<AppEnv> = async (c, next) => {
  // The address is parsed only when it is counted (not with RATE_LIMITS off, as under `npm start`).
  if (config(c.env).rateLimits) await consume(c, "CATALOG_RATE_LIMITER", clientAddress(c));
  await next();
};
