// Types for test/unit/receiver-verify.test.ts, which imports the published verifier.

/** True when some v1 signature of the header matches `t.body` and `t` is fresh; never throws. */
export function verify(header: unknown, rawBody: string, key: string, nowSeconds?: number): boolean;
