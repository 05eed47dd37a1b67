/**
 * The per-isolate API-key cache (src/http/key-cache.ts): known keys for 30 s, unknown keys for
 * 5 s, each map bounded, and apart. The same rules seen through requests are in
 * test/integration/api/auth-cache.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { Caller } from "../../src/contracts/caller";
import { KeyCache } from "../../src/http/key-cache";
import { useClock } from "../helpers/clock";

const T = Date.UTC(2030, 0, 1);
const caller = (accountId: string): Caller => ({
  accountId,
  live: false,
  taxRegime: "es",
  shard: "DB",
  moving: false,
});

describe("API-key cache", () => {
  it("a known key is answered for 30 s, an unknown key for 5 s, then it is a miss", () => {
    const clock = useClock(T);
    const keys = new KeyCache(10);
    keys.remember("known", caller("acct_a"));
    keys.remember("unknown", null);
    expect([keys.get("known"), keys.get("unknown"), keys.get("never")]).toEqual([
      caller("acct_a"),
      null,
      undefined,
    ]);
    clock.set(T + 5_001);
    expect([keys.get("known"), keys.get("unknown")]).toEqual([caller("acct_a"), undefined]);
    clock.set(T + 30_001);
    expect(keys.get("known")).toBeUndefined();
  });

  it("a flood of unknown keys does not evict a working key; a full map drops its oldest entry", () => {
    useClock(T);
    const keys = new KeyCache(3);
    keys.remember("a", caller("acct_a"));
    for (let i = 0; i < 10; i++) keys.remember(`random${i}`, null);
    expect(keys.get("a")).toEqual(caller("acct_a"));
    // Only the 3 newest unknown keys are left.
    expect(["random6", "random7", "random8", "random9"].map((h) => keys.get(h))).toEqual([
      undefined,
      null,
      null,
      null,
    ]);
    keys.remember("b", caller("acct_b"));
    keys.remember("c", caller("acct_c"));
    keys.remember("d", caller("acct_d"));
    expect(["a", "b", "c", "d"].map((h) => keys.get(h)?.accountId)).toEqual([
      undefined,
      "acct_b",
      "acct_c",
      "acct_d",
    ]);
  });

  it("a key found after it was cached as unknown is answered as known at once, and the other way round", () => {
    useClock(T);
    const keys = new KeyCache(3);
    keys.remember("k", null);
    keys.remember("k", caller("acct_k"));
    expect(keys.get("k")).toEqual(caller("acct_k"));
    keys.remember("k", null);
    expect(keys.get("k")).toBeNull();
  });
});
