import { config } from "../config";

/** Where a delivery goes after its last attempt (wrangler.toml `dead_letter_queue`). */
export const DEAD_LETTER_QUEUE = "webhook-deliveries-dlq";

/** Attempts per delivery, the first included (queue `max_retries` is this minus one). */
export const MAX_ATTEMPTS = 5;
/** A destination whose attempts all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** A receiver has this long to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Seconds to wait after failed attempt `attempt` (1-based): `WEBHOOK_RETRY_DELAYS`
 * ("60,600,3600,21600" in production, a few seconds under `npm start`); past the end of
 * the list the last delay repeats.
 */
export function retryDelayAfter(env: Env, attempt: number): number {
  const delays = config(env).webhookRetryDelays;
  return delays[Math.min(attempt, delays.length) - 1] as number;
}

/** Loopback `http` destinations are for local development (`npm start`) only. */
export function allowLoopbackDestinations(env: Env): boolean {
  return config(env).development;
}
