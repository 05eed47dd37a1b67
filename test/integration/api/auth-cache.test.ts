/**
 * The per-isolate API-key cache: known keys for 30 s (a revocation takes effect within
 * that), unknown keys for 5 s (a freshly minted key works almost at once).
 */
import { describe, expect, it } from "vitest";
import { request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, insertApiKey, newApiKey, revokeApiKey } from "../../helpers/factories";

const T = Date.UTC(2030, 0, 1);
const account = (key: string) => request("GET", "/v1/account", undefined, { key });

describe("API-key cache", () => {
  it("a key inserted after it was tried works once the 5 s negative cache expires", async () => {
    const { id } = await createAccount();
    const key = newApiKey("test");
    const clock = useClock(T);
    expect((await account(key)).status).toBe(401);
    await insertApiKey(id, key);
    clock.set(T + 4_000);
    expect((await account(key)).status).toBe(401);
    clock.set(T + 5_001);
    expect((await account(key)).status).toBe(200);
  });

  it("a revoked key stops working once the 30 s cache expires", async () => {
    const { testKey } = await createAccount();
    const clock = useClock(T + 100_000);
    expect((await account(testKey)).status).toBe(200);
    await revokeApiKey(testKey);
    clock.set(T + 129_000);
    expect((await account(testKey)).status).toBe(200);
    clock.set(T + 130_001);
    expect((await account(testKey)).status).toBe(401);
  });
});
