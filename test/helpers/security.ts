import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { afterResponses } from "./after-response";
import { type ApiResponse, request } from "./api";
import { createAccount, newApiKey, revokeApiKey, type TestAccount } from "./factories";
import type { ApiError } from "./types";

const LEAKS = /stack|SQL|D1_ERROR|SQLITE/i;

/**
 * Asserts the API error envelope: status, `type`, `code`, `param` (absent when not given),
 * a `request_id` equal to the `Request-Id` header, JSON content type and no internals.
 * After it, `res.body` is typed as the error envelope.
 *
 * @example
 * expectError(res, 400, "parameter_invalid", "address.city");
 */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
  param?: string,
): asserts res is ApiResponse<ApiError> {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${res.text}`);
  const type =
    status === 401
      ? "authentication_error"
      : status === 429
        ? "rate_limit_error"
        : status >= 500
          ? "api_error"
          : "invalid_request_error";
  const error = (res.body as Partial<ApiError> | null)?.error;
  expect(res.headers.get("content-type"), res.text).toMatch(/^application\/json/);
  expect(error, res.text).toMatchObject({ type, code, message: expect.any(String) });
  expect(error?.param, res.text).toBe(param);
  expect(error?.request_id, res.text).toMatch(/^req_/);
  expect(res.headers.get("request-id"), res.text).toBe(error?.request_id);
  expect(res.text).not.toMatch(LEAKS);
}

/**
 * Every row of every real table (FTS shadow tables and platform tables excluded), as one
 * string: equal snapshots before and after a request prove it wrote nothing.
 */
export async function dbSnapshot(): Promise<string> {
  // What earlier requests left running after their response is not a write of what follows.
  await afterResponses();
  const { results: tables } = await env.DB.prepare(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name",
  ).all<{ name: string; sql: string }>();
  const virtual = tables.filter((t) => /^CREATE VIRTUAL/i.test(t.sql)).map((t) => t.name);
  const real = tables.filter(
    (t) =>
      !/^(sqlite_|_cf_)/.test(t.name) &&
      !/^CREATE VIRTUAL/i.test(t.sql) &&
      !virtual.some((v) => t.name.startsWith(`${v}_`)),
  );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of real) {
    dump[name] = (await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all()).results;
  }
  return JSON.stringify(dump);
}

export type RouteUnderTest = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The request path; `id` is the object made by `create` (":id" for routes without one). */
  path: (id: string) => string;
  body?: unknown;
  /** Routes with an id: creates the object the route acts on with `key`, returns its id. */
  create?: (key: string) => Promise<string>;
  /** Routes with an id: reads the object back with `key` (to prove a rejected call left it alone). */
  read?: (key: string, id: string) => Promise<unknown>;
};

const BAD_HEADERS: [string, string, string][] = [
  ["Basic credentials", "Basic x", "api_key_invalid"],
  ["Bearer without a key", "Bearer", "api_key_invalid"],
  ["Bearer followed by two keys", "Bearer sk_test_aaaaaaaa sk_test_bbbbbbbb", "api_key_invalid"],
  ["a key with an unknown environment prefix", "Bearer sk_prod_x", "api_key_invalid"],
  ["a key without the Bearer scheme", newApiKey("test"), "api_key_invalid"],
  ["a well-formed unknown test key", `Bearer ${newApiKey("test")}`, "api_key_invalid"],
  ["a well-formed unknown live key", `Bearer ${newApiKey("live")}`, "api_key_invalid"],
];

/**
 * The security matrix of one route: missing, malformed, unknown and revoked keys are 401
 * and write nothing; for routes with an id, another account's object and the same
 * account's other environment are 404 `resource_missing` and are left untouched.
 *
 * @example
 * describeAuthMatrix({ method: "DELETE", path: (id) => `/v1/customers/${id}`, create, read });
 */
export function describeAuthMatrix(route: RouteUnderTest): void {
  describe(`${route.method} ${route.path(":id")} rejects callers that must not reach it`, () => {
    let owner: TestAccount;
    let id = ":id";
    beforeAll(async () => {
      owner = await createAccount();
      if (route.create) id = await route.create(owner.testKey);
    });

    const send = (options: { key?: string; headers?: Record<string, string> }, target = id) =>
      request(route.method, route.path(target), route.body, options);

    async function expect401WritesNothing(headers: Record<string, string>, code: string) {
      const before = await dbSnapshot();
      // The snapshot must see the data it guards, or equality would prove nothing.
      expect(before).toContain(owner.id);
      const res = await send({ headers });
      expectError(res, 401, code);
      expect(res.headers.get("www-authenticate"), res.text).toMatch(/^Bearer/);
      expect(await dbSnapshot()).toBe(before);
    }

    it("a request without an Authorization header is 401 api_key_missing and writes nothing", async () => {
      await expect401WritesNothing({}, "api_key_missing");
    });

    it.each(BAD_HEADERS)(
      "an Authorization header with %s is 401 and writes nothing",
      async (_, value, code) => {
        await expect401WritesNothing({ authorization: value }, code);
      },
    );

    it("a revoked key is 401 api_key_invalid and writes nothing", async () => {
      const revoked = await createAccount();
      await revokeApiKey(revoked.testKey);
      await expect401WritesNothing({ authorization: `Bearer ${revoked.testKey}` }, "api_key_invalid");
    });

    if (!route.create) return;
    const { create, read } = route;

    async function expect404LeavesIt(key: string, target: string, ownerKey: string) {
      const before = read ? await read(ownerKey, target) : undefined;
      const res = await send({ key }, target);
      expectError(res, 404, "resource_missing");
      expect(res.body.error.message, res.text).toContain(target);
      if (read) expect(await read(ownerKey, target)).toEqual(before);
    }

    it("another account's object does not exist for the caller: 404 resource_missing", async () => {
      const stranger = await createAccount();
      await expect404LeavesIt(stranger.testKey, id, owner.testKey);
    });

    it("a test object does not exist for the same account's live key: 404", async () => {
      await expect404LeavesIt(owner.liveKey, id, owner.testKey);
    });

    it("a live object does not exist for the same account's test key: 404", async () => {
      const liveId = await create(owner.liveKey);
      await expect404LeavesIt(owner.testKey, liveId, owner.liveKey);
    });
  });
}
