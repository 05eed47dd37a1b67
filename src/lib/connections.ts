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

/** A slot held by a key; calling it frees the slot (once). */
export type Release = () => void;

/**
 * Slots shared fairly between keys (accounts): one key holds at most `perKey` of the
 * `limit`, so that one account's slow receivers leave the others free for the rest of the
 * batch. A caller that has no slot within `waitMs` gets null and reschedules its work rather
 * than hold its invocation behind receivers that may never answer.
 */
export function fairSlots(limit = CONNECTIONS_PER_INVOCATION, perKey = Math.ceil(limit / 2)) {
  let free = limit;
  const held = new Map<string, number>();
  type Waiter = { key: string; grant: (release: Release) => void };
  const waiting: Waiter[] = [];
  const count = (key: string) => held.get(key) ?? 0;
  const take = (key: string): Release => {
    free--;
    held.set(key, count(key) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      free++;
      held.set(key, count(key) - 1);
      const next = waiting.findIndex((w) => count(w.key) < perKey);
      if (next < 0) return;
      const waiter = waiting.splice(next, 1)[0] as Waiter;
      waiter.grant(take(waiter.key));
    };
  };
  return (key: string, waitMs: number): Promise<Release | null> => {
    if (free > 0 && count(key) < perKey) return Promise.resolve(take(key));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = waiting.indexOf(waiter);
        if (i >= 0) waiting.splice(i, 1);
        resolve(null);
      }, waitMs);
      const waiter: Waiter = {
        key,
        grant: (release: Release) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      waiting.push(waiter);
    });
  };
}
