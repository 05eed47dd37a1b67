import { config } from "../config";

/** The queue of registry checks, and where a check our own processing kept failing goes (wrangler.toml). */
export const VERIFICATION_QUEUE = "tax-id-verifications";
export const VERIFICATION_DEAD_LETTER_QUEUE = "tax-id-verifications-dlq";

/**
 * Registry attempts per verification: the first, then one after each delay of
 * `VERIFICATION_RETRY_DELAYS` (five with compliance.md's 1 min, 10 min, 1 h, 6 h).
 */
export function maxAttempts(env: Env): number {
  return config(env).verificationRetryDelays.length + 1;
}

/** Seconds to wait after the registry was unavailable on attempt `attempt` (1-based). */
export function retryDelayAfter(env: Env, attempt: number): number {
  const delays = config(env).verificationRetryDelays;
  return delays[Math.min(attempt, delays.length) - 1] as number;
}
