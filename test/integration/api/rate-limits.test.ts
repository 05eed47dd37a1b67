/**
 * Rate limits (wrangler.toml `[[ratelimits]]`): per API key and per account and environment
 * for authenticated calls (a large write counting several units), per client address for
 * calls whose key is missing, malformed or unknown, per address on the public catalog. Over a
 * limit: 429 `rate_limited`, `rate_limit_error`, `Retry-After`.
 *
 * The suite's own limiters are raised out of reach (vitest.config.ts), so these tests run
 * the Worker with every limiter swapped for TEST_RATE_LIMITER: the same local binding, 3
 * requests a minute. Each test uses its own keys and addresses, since the counts outlive it.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { app } from "../../../src/app";
import { parseConfig } from "../../../src/config";
import {
  type LimiterName,
  LOCAL_ADDRESS,
  MAX_WEIGHT,
  RATE_LIMIT_PERIODS,
  WEIGHT_UNIT_BYTES,
} from "../../../src/http/rate-limit";
import type { ApiResponse } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, insertApiKey, newApiKey, revokeApiKey, validCustomer } from "../../helpers/factories";
import { dbSnapshot } from "../../helpers/security";

type WranglerRateLimit = { name: string; namespace_id: string; simple: { limit: number; period: number } };
// The test-only bindings of vitest.config.ts (test/env.d.ts types only the shared ones).
const testEnv = env as unknown as Env & {
  TEST_RATE_LIMITER: RateLimit;
  TEST_WRANGLER_RATE_LIMITS: WranglerRateLimit[];
};
/** TEST_RATE_LIMITER's limit (vitest.config.ts). */
const LIMIT = 3;

type SendOptions = {
  key?: string;
  address?: string;
  body?: unknown;
  /** Spaces after the JSON body (still valid JSON), to make it `pad` bytes larger. */
  pad?: number;
  /** Sends the body as a stream, without `Content-Length` (a chunked upload). */
  chunked?: boolean;
  vars?: Partial<Env>;
  limiter?: RateLimit;
};

/** A request to the Worker with every limiter swapped for `limiter` (TEST_RATE_LIMITER). */
async function send(method: string, path: string, options: SendOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.address) headers["cf-connecting-ip"] = options.address;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const limiter = options.limiter ?? testEnv.TEST_RATE_LIMITER;
  const workerEnv = {
    ...testEnv,
    ...options.vars,
    KEY_RATE_LIMITER: limiter,
    ACCOUNT_LIVE_RATE_LIMITER: limiter,
    ACCOUNT_TEST_RATE_LIMITER: limiter,
    ADDRESS_RATE_LIMITER: limiter,
    CATALOG_RATE_LIMITER: limiter,
  };
  const text =
    options.body === undefined ? undefined : JSON.stringify(options.body) + " ".repeat(options.pad ?? 0);
  let body: BodyInit | undefined = text;
  if (text !== undefined && options.chunked) {
    const bytes = new TextEncoder().encode(text);
    body = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  } else if (text !== undefined) {
    // As every HTTP client sends it with a fixed body.
    headers["content-length"] = String(new TextEncoder().encode(text).byteLength);
  }
  const request = new Request(`http://api.test${path}`, { method, headers, body });
  const res = await app.fetch(request, workerEnv, createExecutionContext());
  const answer = await res.text();
  return { status: res.status, body: answer ? JSON.parse(answer) : null, headers: res.headers, text: answer };
}

/** `times` requests, each expected to answer `status`. */
async function sendTimes(times: number, status: number, path: string, options: SendOptions = {}) {
  for (let i = 0; i < times; i++) {
    const res = await send("GET", path, options);
    expect(res.status, res.text).toBe(status);
  }
}

/** 429 `rate_limited` in the error envelope, with `Retry-After` the period of `limiter`. */
function expectRateLimited(res: ApiResponse, limiter: LimiterName): void {
  const retryAfter = String(RATE_LIMIT_PERIODS[limiter]);
  expect(res.status, res.text).toBe(429);
  expect(res.headers.get("content-type"), res.text).toMatch(/^application\/json/);
  expect(res.headers.get("retry-after"), res.text).toBe(retryAfter);
  expect(res.body, res.text).toEqual({
    error: {
      type: "rate_limit_error",
      code: "rate_limited",
      message: expect.stringContaining(`retry after ${retryAfter} seconds`),
      request_id: res.headers.get("request-id"),
    },
  });
}

/** A fresh address per test: the limiter's counts outlive the test that made them. */
const newAddress = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join(".")}`;

/**
 * The local limiter counts in wall-clock windows of its period (60 s): a burst that straddled
 * two would start over halfway, so one that would end too close to the edge waits for the next.
 */
async function freshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe("per API key: authenticated calls over the key's limit", () => {
  it("a key over its limit gets 429 rate_limited, type rate_limit_error, Retry-After and no-store", async () => {
    const { testKey } = await createAccount();
    await freshWindow();
    await sendTimes(LIMIT, 200, "/v1/account", { key: testKey });
    const res = await send("GET", "/v1/account", { key: testKey });
    expectRateLimited(res, "KEY_RATE_LIMITER");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("Test and Live are counted apart: the account's Live key keeps its budget when its Test key is over", async () => {
    const { testKey, liveKey } = await createAccount();
    await freshWindow();
    await sendTimes(LIMIT, 200, "/v1/account", { key: testKey });
    expectRateLimited(await send("GET", "/v1/account", { key: testKey }), "KEY_RATE_LIMITER");
    await sendTimes(LIMIT, 200, "/v1/account", { key: liveKey });
  });

  it("a request over the limit writes nothing", async () => {
    const { testKey } = await createAccount();
    await freshWindow();
    await sendTimes(LIMIT, 200, "/v1/account", { key: testKey });
    const before = await dbSnapshot();
    expectRateLimited(
      await send("POST", "/v1/customers", { key: testKey, body: validCustomer }),
      "KEY_RATE_LIMITER",
    );
    expect(await dbSnapshot()).toBe(before);
  });
});

describe("per account and environment: keys cannot multiply the budget", () => {
  it.each([
    ["test", "ACCOUNT_TEST_RATE_LIMITER"],
    ["live", "ACCOUNT_LIVE_RATE_LIMITER"],
  ] as const)(
    "two %s keys of one account share its budget: over it together, 429 though each is under its own",
    async (environment, limiter) => {
      const account = await createAccount();
      const first = environment === "test" ? account.testKey : account.liveKey;
      const second = newApiKey(environment);
      await insertApiKey(account.id, second);
      await freshWindow();
      await sendTimes(LIMIT - 1, 200, "/v1/account", { key: first });
      await sendTimes(1, 200, "/v1/account", { key: second });
      // The second key has been used once of its LIMIT: the account's budget is what refuses it.
      const res = await send("GET", "/v1/account", { key: second });
      expectRateLimited(res, limiter);
      expect(res.text).toContain("this account");
      expectRateLimited(await send("GET", "/v1/account", { key: first }), limiter);
    },
  );

  it("another account's keys keep their own budget", async () => {
    const one = await createAccount();
    const other = await createAccount();
    await freshWindow();
    await sendTimes(LIMIT, 200, "/v1/account", { key: one.testKey });
    await sendTimes(LIMIT, 200, "/v1/account", { key: other.testKey });
  });
});

describe("weighted writes: a large body counts one unit per started 64 KiB", () => {
  it("a write of just over two units' bytes counts 3: the next request is over a limit of 3", async () => {
    expect(WEIGHT_UNIT_BYTES).toBe(64 * 1024);
    const { testKey } = await createAccount();
    const pad = 2 * WEIGHT_UNIT_BYTES + 1 - JSON.stringify(validCustomer).length;
    await freshWindow();
    const heavy = await send("POST", "/v1/customers", { key: testKey, body: validCustomer, pad });
    expect(heavy.status, heavy.text).toBe(201);
    expectRateLimited(await send("GET", "/v1/account", { key: testKey }), "KEY_RATE_LIMITER");
  });

  it("a body of one unit or less counts 1", async () => {
    const { testKey } = await createAccount();
    const pad = WEIGHT_UNIT_BYTES - JSON.stringify(validCustomer).length;
    await freshWindow();
    for (let i = 0; i < LIMIT; i++) {
      const res = await send("POST", "/v1/customers", { key: testKey, body: validCustomer, pad });
      expect(res.status, res.text).toBe(201);
    }
    expectRateLimited(await send("GET", "/v1/account", { key: testKey }), "KEY_RATE_LIMITER");
  });

  it("a body without Content-Length counts as the largest (1 MiB: 16 units), and writes nothing", async () => {
    expect(MAX_WEIGHT).toBe(16);
    const { testKey } = await createAccount();
    await freshWindow();
    const before = await dbSnapshot();
    const res = await send("POST", "/v1/customers", { key: testKey, body: validCustomer, chunked: true });
    expectRateLimited(res, "KEY_RATE_LIMITER");
    expect(await dbSnapshot()).toBe(before);
  });
});

describe("per client address: calls whose key is missing, malformed or unknown", () => {
  it("calls without a key are 401 up to the address's limit, then 429 with Retry-After", async () => {
    const address = newAddress();
    await freshWindow();
    await sendTimes(LIMIT, 401, "/v1/account", { address });
    const res = await send("GET", "/v1/account", { address });
    expectRateLimited(res, "ADDRESS_RATE_LIMITER");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("missing, malformed and unknown keys share one budget per address; another address has its own", async () => {
    const address = newAddress();
    await freshWindow();
    await sendTimes(1, 401, "/v1/account", { address });
    await sendTimes(1, 401, "/v1/account", { address, key: "sk_prod_x" });
    await sendTimes(1, 401, "/v1/account", { address, key: newApiKey("test") });
    expectRateLimited(
      await send("GET", "/v1/account", { address, key: newApiKey("live") }),
      "ADDRESS_RATE_LIMITER",
    );
    await sendTimes(LIMIT, 401, "/v1/account", { address: newAddress(), key: newApiKey("test") });
  });

  it("a known key never counts against its address, even once the address is over its limit", async () => {
    const { testKey } = await createAccount();
    const address = newAddress();
    await freshWindow();
    await sendTimes(1, 200, "/v1/account", { address, key: testKey });
    await sendTimes(LIMIT, 401, "/v1/account", { address });
    expectRateLimited(await send("GET", "/v1/account", { address }), "ADDRESS_RATE_LIMITER");
    await sendTimes(1, 200, "/v1/account", { address, key: testKey });
  });

  it("once an address is over its limit, a key not cached yet is refused before the D1 lookup, for one period", async () => {
    const { testKey } = await createAccount();
    const address = newAddress();
    const clock = useClock(Date.now());
    await freshWindow();
    await sendTimes(LIMIT, 401, "/v1/account", { address });
    expectRateLimited(await send("GET", "/v1/account", { address }), "ADDRESS_RATE_LIMITER");

    clock.advance(4_000);
    const refused = await send("GET", "/v1/account", { address, key: testKey });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: "rate_limited", type: "rate_limit_error" } });
    // The seconds left of the period, not the whole period.
    expect(refused.headers.get("retry-after")).toBe(String(RATE_LIMIT_PERIODS.ADDRESS_RATE_LIMITER - 4));
    expect(refused.headers.get("d1-rows-read"), refused.text).toBe("0");

    clock.advance(RATE_LIMIT_PERIODS.ADDRESS_RATE_LIMITER * 1000 - 4_000 + 1);
    const looked = await send("GET", "/v1/account", { address, key: testKey });
    expect(looked.status, looked.text).toBe(200);
    expect(Number(looked.headers.get("d1-rows-read")), looked.text).toBeGreaterThan(0);
  });

  it("a revoked key counts against its address like an unknown one", async () => {
    const { testKey } = await createAccount();
    await revokeApiKey(testKey);
    const address = newAddress();
    await freshWindow();
    await sendTimes(LIMIT, 401, "/v1/account", { address, key: testKey });
    expectRateLimited(await send("GET", "/v1/account", { address, key: testKey }), "ADDRESS_RATE_LIMITER");
  });

  it("an IPv6 address counts as its /64", async () => {
    const [a = 0, b = 0] = crypto.getRandomValues(new Uint16Array(2));
    const net = `2001:db8:${a.toString(16)}:${b.toString(16)}`;
    const otherNet = `2001:db8:${a.toString(16)}:${((b + 1) & 0xffff).toString(16)}`;
    await freshWindow();
    await sendTimes(2, 401, "/v1/account", { address: `${net}::1` });
    await sendTimes(1, 401, "/v1/account", { address: `${net}:ffff:1:2:3` });
    expectRateLimited(
      await send("GET", "/v1/account", { address: `${net}:0:0:0:9` }),
      "ADDRESS_RATE_LIMITER",
    );
    await sendTimes(LIMIT, 401, "/v1/account", { address: `${otherNet}::1` });
  });

  it(`without CF-Connecting-IP (npm start) every caller shares the address "${LOCAL_ADDRESS}"`, async () => {
    // In the past, so that the refusal remembered below has lapsed for the tests after this one.
    useClock(Date.UTC(2020, 0, 1));
    await freshWindow();
    await sendTimes(LIMIT, 401, "/v1/account", { key: newApiKey("test") });
    expectRateLimited(await send("GET", "/v1/account", { key: newApiKey("live") }), "ADDRESS_RATE_LIMITER");
  });
});

describe("the public routes", () => {
  it("the tax-regime catalog is limited per address, and its 429 carries the CORS headers", async () => {
    const address = newAddress();
    await freshWindow();
    await sendTimes(LIMIT - 1, 200, "/v1/tax-regimes", { address });
    await sendTimes(1, 200, "/v1/tax-regimes/es", { address });
    const res = await send("GET", "/v1/tax-regimes/es", { address });
    expectRateLimited(res, "CATALOG_RATE_LIMITER");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    await sendTimes(1, 200, "/v1/tax-regimes/es", { address: newAddress() });
  });

  it("/health is never limited: it stays the benchmark's static floor", async () => {
    await freshWindow();
    await sendTimes(LIMIT * 2, 200, "/health", { address: newAddress() });
  });
});

describe("limits in configuration", () => {
  it("Retry-After is the period wrangler.toml gives each limiter", () => {
    const configured = testEnv.TEST_WRANGLER_RATE_LIMITS.map((r) => [r.name, r.simple.period]);
    expect(Object.fromEntries(configured)).toEqual(RATE_LIMIT_PERIODS);
  });

  it("wrangler.toml's limits are the documented ones: Live 1000 and Test 250 per 10 s per account, 1000 per key", () => {
    const limits = Object.fromEntries(testEnv.TEST_WRANGLER_RATE_LIMITS.map((r) => [r.name, r.simple]));
    expect(limits.ACCOUNT_LIVE_RATE_LIMITER).toEqual({ limit: 1000, period: 10 });
    expect(limits.ACCOUNT_TEST_RATE_LIMITER).toEqual({ limit: 250, period: 10 });
    expect(limits.KEY_RATE_LIMITER).toEqual({ limit: 1000, period: 10 });
  });

  it("a limiter that fails lets the request through and is logged (fail open)", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { limit: () => Promise.reject(new Error("limiter unavailable")) };
    const { testKey } = await createAccount();
    await sendTimes(LIMIT + 1, 200, "/v1/account", { key: testKey, limiter: broken });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"event":"rate_limiter_unavailable"'));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"code":"KEY_RATE_LIMITER"'));
  });

  it("RATE_LIMITS=off (bench/ under npm start) enforces nothing, and only development accepts it", async () => {
    const { testKey } = await createAccount();
    const vars = { APP_ENV: "development", RATE_LIMITS: "off" } as Partial<Env>;
    await freshWindow();
    await sendTimes(LIMIT + 2, 200, "/v1/account", { key: testKey, vars });
    const production = { APP_ENV: "production", EXPOSE_DB_METRICS: "false", WEBHOOK_RETRY_DELAYS: "60" };
    expect(() => parseConfig({ ...production, RATE_LIMITS: "off" })).toThrow("RATE_LIMITS");
  });
});
