import type { TaxIdType } from "../constants";

/** What a registry is asked: a normalised Tax ID as stored (`eu_vat` values carry their prefix). */
export type RegistryQuery = { country: string; type: TaxIdType; value: string };

/**
 * A registry's answer. `result` is final (`completed`); `unavailable` is retried with backoff
 * and, once the retries are spent, ends `failed`: it is never evidence of invalidity.
 */
export type RegistryAnswer =
  | { kind: "result"; valid: boolean; name: string | null; address: string | null }
  | { kind: "unavailable"; reason: string };

/** One registry (VIES, the AEAT census, the Test-mode sandbox) behind one interface. */
export interface Registry {
  /** `attempt` starts at 1 (the sandbox's "unavailable on the first attempt" needs it). */
  check(query: RegistryQuery, attempt: number): Promise<RegistryAnswer>;
}
