/**
 * The work the API's requests leave running after their response (`ctx.waitUntil`: an event's
 * fan-out, a Tax ID's first check), tracked by the suite's Worker (test/worker.ts), so that a
 * test waits for it to finish instead of polling for its effects.
 */
const running = new Set<Promise<unknown>>();

/** `ctx` with its `waitUntil` tracked: what test/worker.ts hands the API's `fetch`. */
export function trackedContext(ctx: ExecutionContext): ExecutionContext {
  return {
    props: ctx.props,
    passThroughOnException: () => ctx.passThroughOnException(),
    waitUntil(promise: Promise<unknown>) {
      const tracked = promise.finally(() => running.delete(tracked));
      running.add(tracked);
      ctx.waitUntil(tracked);
    },
  } as ExecutionContext;
}

/**
 * Waits until everything the requests made so far left running after their response has
 * settled (a rejection is the app's to log, not the test's to throw).
 *
 * @example
 * expectStatus(await api.post("/v1/customers", body), 201);
 * await afterResponses();
 */
export async function afterResponses(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
