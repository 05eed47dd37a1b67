/**
 * API keys: `npm run key:revoke` (its statement, scripts/key-revoke.sql, run here as the
 * script runs it) and `Cache-Control: no-store` on every authenticated response.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import revokeSql from "../../../scripts/key-revoke.sql";
import { nowIso } from "../../../src/lib/clock";
import { sha256Hex } from "../../../src/lib/crypto";
import { type ApiResponse, client, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createCustomer,
  newApiKey,
  revokeApiKey,
  validCustomer,
} from "../../helpers/factories";

type RevokedRow = { id: string; account_id: string; live: number; key_hint: string; revoked_at: string };

/** What `npm run key:revoke -- --key <key>` or `-- --id <id>` runs, with the script's parameters. */
async function revoke(by: { key?: string; id?: string }): Promise<RevokedRow[]> {
  const hash = by.key ? await sha256Hex(by.key) : null;
  const { results } = await env.DIRECTORY.prepare(revokeSql)
    .bind(hash, by.id ?? null, nowIso())
    .all<RevokedRow>();
  return results;
}

const T = Date.UTC(2031, 0, 1);
const account = (key: string) => client(key).get("/v1/account");

describe("npm run key:revoke", () => {
  it("a key revoked by its secret stops working once the 30 s key cache expires", async () => {
    const { id, testKey } = await createAccount();
    const clock = useClock(T);
    expect((await account(testKey)).status).toBe(200);
    const [row] = await revoke({ key: testKey });
    expect(row).toMatchObject({ account_id: id, live: 0, key_hint: testKey.slice(-4) });
    expect(row?.revoked_at).toBe(new Date(T).toISOString());
    clock.set(T + 29_000);
    expect((await account(testKey)).status).toBe(200);
    clock.set(T + 30_001);
    expect((await account(testKey)).status).toBe(401);
  });

  it("a key revoked by its id is refused at once when no isolate has it cached", async () => {
    const { liveKey } = await createAccount();
    const { results } = await env.DIRECTORY.prepare("SELECT id FROM api_keys WHERE key_hash = ?")
      .bind(await sha256Hex(liveKey))
      .all<{ id: string }>();
    const [row] = await revoke({ id: results[0]?.id });
    expect(row).toMatchObject({ live: 1, key_hint: liveKey.slice(-4) });
    expect((await account(liveKey)).status).toBe(401);
  });

  it("revoking one key leaves the account's other key working", async () => {
    const { testKey, liveKey } = await createAccount();
    await revoke({ key: testKey });
    expect((await account(testKey)).status).toBe(401);
    expect((await account(liveKey)).status).toBe(200);
  });

  it("revoking a key twice keeps the first revoked_at", async () => {
    const { testKey } = await createAccount();
    const clock = useClock(T);
    await revoke({ key: testKey });
    clock.set(T + 60_000);
    const [again] = await revoke({ key: testKey });
    expect(again?.revoked_at).toBe(new Date(T).toISOString());
  });

  it("an unknown key or id revokes nothing and returns no row", async () => {
    expect(await revoke({ key: newApiKey("live") })).toEqual([]);
    expect(await revoke({ id: "key_01ZZZZZZZZZZZZZZZZZZZZZZZZ" })).toEqual([]);
  });
});

describe("every authenticated response is Cache-Control: no-store", () => {
  const expectNoStore = (res: ApiResponse, status: number) => {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get("cache-control"), res.text).toBe("no-store");
  };

  it("successes: 200, 201 and 204", async () => {
    const { testKey } = await createAccount();
    const api = client(testKey);
    expectNoStore(await api.get("/v1/account"), 200);
    const customer = await createCustomer(api);
    expectNoStore(await api.get(`/v1/customers/${customer.id}`), 200);
    expectNoStore(await api.get("/v1/customers"), 200);
    expectNoStore(await api.post("/v1/customers", validCustomer), 201);
    expectNoStore(await api.del(`/v1/customers/${customer.id}`), 204);
  });

  it("errors of authenticated callers: 400, 404 and an unknown route", async () => {
    const api = client((await createAccount()).testKey);
    expectNoStore(await api.post("/v1/customers", { name: 1 }), 400);
    expectNoStore(await api.get("/v1/customers/cus_01ZZZZZZZZZZZZZZZZZZZZZZZZ"), 404);
    expectNoStore(await api.get("/v1/nothing-here"), 404);
  });

  it.each([
    ["no Authorization header", {}],
    ["a malformed key", { authorization: "Bearer sk_prod_x" }],
    ["an unknown key", { authorization: `Bearer ${newApiKey("test")}` }],
  ])("401 for %s", async (_, headers) => {
    expectNoStore(await request("GET", "/v1/account", undefined, { headers }), 401);
  });

  it("401 for a revoked key", async () => {
    const { testKey } = await createAccount();
    await revokeApiKey(testKey);
    expectNoStore(await account(testKey), 401);
  });

  it("the public catalog keeps its public caching and /health is left alone", async () => {
    const catalog = await request("GET", "/v1/tax-regimes/es");
    expect(catalog.headers.get("cache-control"), catalog.text).toMatch(/^public, max-age=/);
    const health = await request("GET", "/health");
    expect(health.headers.get("cache-control"), health.text).toBeNull();
  });
});
