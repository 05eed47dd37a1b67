/**
 * How a registry reaches the network: the global `fetch`, or the `fetch` of an mTLS
 * certificate binding (which presents the deployment's certificate). Tests pass a fake one:
 * that is the network boundary.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** An mTLS certificate binding (`[[mtls_certificates]]`): its `fetch` presents the certificate. */
export type CertificateBinding = { fetch: FetchLike };

/** What came back, read whole; or why nothing usable did. Never throws. */
export type HttpAnswer =
  | { ok: true; status: number; body: string }
  | { ok: false; reason: "timeout" | "network_error" };

const isTimeout = (err: unknown) => (err as { name?: unknown } | null)?.name === "TimeoutError";

/**
 * POSTs `body` and reads the whole answer within `timeoutMs`. The deadline covers the body
 * too, and holds even for a fetcher that ignores its signal. Redirects are not followed: a
 * registry that redirects is not answering.
 *
 * @example
 * await postText(fetch, "https://example.com/check", { "Content-Type": "application/json" }, "{}", 10_000);
 * // { ok: true, status: 200, body: "…" } or { ok: false, reason: "timeout" }
 */
export async function postText(
  fetcher: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const expired = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  const send = async (): Promise<HttpAnswer> => {
    const res = await fetcher(url, { method: "POST", headers, body, redirect: "manual", signal });
    return { ok: true, status: res.status, body: await res.text() };
  };
  try {
    return await Promise.race([send(), expired]);
  } catch (err) {
    return { ok: false, reason: isTimeout(err) ? "timeout" : "network_error" };
  }
}

/** A code taken from a registry's answer, if it is shaped like one (never free text: it may quote data). */
export function codeToken(value: unknown, shape: RegExp): string | undefined {
  return typeof value === "string" && shape.test(value) ? value : undefined;
}
