/**
 * One Workers invocation may have six connections waiting for response headers; the runtime
 * queues a seventh fetch until one of them has its headers (Workers platform limits; `wrangler
 * dev` does not enforce it). A timeout starts with its fetch, so a request left in that queue
 * behind slow servers would time out without ever being sent: a webhook receiver would be
 * charged a failed attempt, a registry check an "unavailable" one. Outbound requests of one
 * invocation therefore take one of six slots here first: their timeout counts from when they
 * are sent.
 */
export const CONNECTIONS_PER_INVOCATION = 6;

/** Runs `send` once a slot is free; the slot is free again when it settles. */
export type Slots = <T>(send: () => Promise<T>) => Promise<T>;

/**
 * Slots for one invocation (a request, a consumer batch), shared by everything it sends: a
 * batch's registry checks and the first attempts of the events they settle take the same six.
 * Not per isolate, whose concurrent requests each have their own six.
 *
 * @example
 * const slots = connectionSlots();
 * await Promise.all(destinations.map((d) => post(d, body, env, slots)));
 */
export function connectionSlots(limit = CONNECTIONS_PER_INVOCATION): Slots {
  let free = limit;
  const waiting: (() => void)[] = [];
  return async (send) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await send();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
