import type { Caller } from "../contracts/caller";
import { nowMs } from "../lib/clock";

/** How long a known key's caller is trusted: a revoked key stops working within this. */
const KNOWN_TTL_MS = 30_000;
/** Short, so a key minted just after a failed try works almost at once. */
const UNKNOWN_TTL_MS = 5_000;

type Entries<T> = Map<string, { caller: T; expires: number }>;

/**
 * An isolate's answers of the key directory, by key hash, so that most requests cost no D1
 * round trip. Known and unknown keys are kept apart, each map bounded to `max` (the oldest
 * entry makes room): a flood of random keys evicts only unknown ones, never working callers.
 *
 * @example
 * const keys = new KeyCache(1_000);
 * keys.remember(hash, caller);
 * keys.get(hash); // caller for 30 s; `null` is a cached unknown key, `undefined` a miss
 */
export class KeyCache {
  readonly #known: Entries<Caller> = new Map();
  readonly #unknown: Entries<null> = new Map();

  constructor(readonly max: number) {}

  get(hash: string): Caller | null | undefined {
    const hit = this.#known.get(hash) ?? this.#unknown.get(hash);
    return hit && hit.expires > nowMs() ? hit.caller : undefined;
  }

  remember(hash: string, caller: Caller | null): void {
    if (caller) {
      this.#unknown.delete(hash);
      put(this.#known, hash, caller, KNOWN_TTL_MS, this.max);
    } else {
      this.#known.delete(hash);
      put(this.#unknown, hash, null, UNKNOWN_TTL_MS, this.max);
    }
  }
}

function put<T>(map: Entries<T>, hash: string, caller: T, ttlMs: number, max: number): void {
  map.delete(hash);
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(hash, { caller, expires: nowMs() + ttlMs });
}
