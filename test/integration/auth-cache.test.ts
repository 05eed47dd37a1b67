/**
 * The per-isolate API-key cache: known keys for 30 s (a revocation takes effect within
 * that), unknown keys for 5 s (a freshly minted key works almost at once).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/lib/clock";
import { sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { createAccount } from "../helpers/accounts";
import { request } from "../helpers/api";

let restore: (() => void) | undefined;
afterEach(() => restore?.());

const T = Date.UTC(2030, 0, 1);
function at(ms: number) {
  restore?.();
  restore = setClock(() => ms);
}
const account = (key: string) => request("GET", "/v1/account", undefined, { key });

describe("API-key cache", () => {
  it("a key inserted after it was tried works once the 5 s negative cache expires", async () => {
    const { id } = await createAccount();
    const key = `sk_test_${crypto.randomUUID().replaceAll("-", "")}`;
    at(T);
    expect((await account(key)).status).toBe(401);
    await env.DB.prepare(
      "INSERT INTO api_keys (id, account_id, live, key_hash, key_hint, created_at) VALUES (?, ?, 0, ?, ?, ?)",
    )
      .bind(newId("apiKey"), id, await sha256Hex(key), key.slice(-4), new Date(T).toISOString())
      .run();
    at(T + 4_000);
    expect((await account(key)).status).toBe(401);
    at(T + 5_001);
    expect((await account(key)).status).toBe(200);
  });

  it("a revoked key stops working once the 30 s cache expires", async () => {
    const { testKey } = await createAccount();
    at(T + 100_000);
    expect((await account(testKey)).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE key_hash = ?")
      .bind(new Date(T).toISOString(), await sha256Hex(testKey))
      .run();
    at(T + 129_000);
    expect((await account(testKey)).status).toBe(200);
    at(T + 130_001);
    expect((await account(testKey)).status).toBe(401);
  });
});
