import type { Context, MiddlewareHandler } from "hono";
import { config } from "../config";
import { nowMs } from "../lib/clock";
import { logError } from "../lib/log";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { mappedIPv4, parseIPv6 } from "./ip";

/**
 * The `[[ratelimits]]` bindings of wrangler.toml and the period, in seconds, each counts
 * over (the limits themselves live only there). The binding does not say when its window
 * ends, but after one period the count has started over, so the period is an honest
 * `Retry-After`. A test holds these equal to wrangler.toml.
 */
export const RATE_LIMIT_PERIODS = {
  /** Authenticated requests, per API key. */
  KEY_RATE_LIMITER: 10,
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
 * Counts one request for `key` against `limiter`; over the limit, throws 429 `rate_limited`
 * with `Retry-After`.
 *
 * @example
 * await consume(c, "KEY_RATE_LIMITER", keyHash);
 */
export async function consume(c: Context<AppEnv>, limiter: LimiterName, key: string): Promise<void> {
  if (!config(c.env).rateLimits) return;
  let success: boolean;
  try {
    ({ success } = await c.env[limiter].limit({ key }));
  } catch (err) {
    // Fail open: a limiter outage must not take the API down with it.
    logError("rate_limiter_unavailable", err, { request_id: c.get("requestId"), code: limiter });
    return;
  }
  if (!success) throw rateLimited(limiter, RATE_LIMIT_PERIODS[limiter]);
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
  await consume(c, "CATALOG_RATE_LIMITER", clientAddress(c));
  await next();
};
