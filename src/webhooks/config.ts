import { config } from "../config";

/** Where a delivery goes after its last attempt (wrangler.toml `dead_letter_queue`). */
export const DEAD_LETTER_QUEUE = "webhook-deliveries-dlq";

/** The receiver's attempts per delivery, the first included (counted in the message body). */
export const MAX_ATTEMPTS = 5;
/** Event destinations per account and environment, enabled or not (Stripe's endpoint limit). */
export const MAX_DESTINATIONS = 16;
/** Our own failures back off from 1 minute, doubling, to at most 1 hour between tries. */
const OWN_RETRY_FIRST_S = 60;
const OWN_RETRY_MAX_S = 3600;
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

/**
 * Seconds to wait after our own failure (D1 unavailable, a bug) on the queue's `tries`-th
 * try of a message: 60, 120, 240… up to 3600. The receiver's attempt does not advance, so an
 * outage on our side never uses up its five; the queue's `max_retries` bounds how long we
 * keep trying before the message is dead-lettered (and recorded for a re-drive).
 */
export function ownRetryDelay(tries: number): number {
  return Math.min(OWN_RETRY_FIRST_S * 2 ** (Math.max(tries, 1) - 1), OWN_RETRY_MAX_S);
}
