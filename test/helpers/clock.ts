import { onTestFinished } from "vitest";
import { setClock } from "../../src/lib/clock";

export type TestClock = {
  /** The time the app reads now, in epoch milliseconds. */
  now(): number;
  /** Moves the app's clock to `ms`. */
  set(ms: number): void;
  /** Moves the app's clock `ms` forward (backward when negative). */
  advance(ms: number): void;
};

/**
 * Stops the app's clock (src/lib/clock.ts) at `startMs` for the rest of the running test,
 * and gives the real clock back when the test finishes, passed or failed, so that no later
 * test inherits a moved clock. Call it inside a test, not in a hook.
 *
 * @example
 * const clock = useClock(Date.UTC(2025, 0, 5));
 * await deliver();
 * clock.advance(24 * HOUR);
 */
export function useClock(startMs: number): TestClock {
  let current = startMs;
  onTestFinished(setClock(() => current));
  return {
    now: () => current,
    set(ms) {
      current = ms;
    },
    advance(ms) {
      current += ms;
    },
  };
}
