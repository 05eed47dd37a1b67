/**
 * The webhook signature as a receiver checks it, written here independently of
 * src/webhooks/signature.ts so that a test compares the service against a second opinion.
 */

/**
 * Hex of HMAC-SHA256(secret, message).
 *
 * @example
 * expect(v1).toBe(await referenceHmac(dest.secret, `${t}.${body}`));
 */
export async function referenceHmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * `t` and `v1` of a `Service-Signature` header of exactly the form `t=<digits>,v1=<64 hex>`, or null.
 *
 * @example
 * parseSignature("t=1700000000,v1=1e58…") // { t: 1700000000, v1: "1e58…" }
 */
export function parseSignature(header: string | null): { t: number; v1: string } | null {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  return m ? { t: Number(m[1]), v1: m[2] as string } : null;
}

/**
 * `t` and every `v1` of a `Service-Signature` header of the form `t=<digits>(,v1=<64 hex>)+`
 * (several while a secret is rotated), in order, or null.
 *
 * @example
 * parseSignatures("t=1700000000,v1=1e58…,v1=9c07…") // { t: 1700000000, v1: ["1e58…", "9c07…"] }
 */
export function parseSignatures(header: string | null): { t: number; v1: string[] } | null {
  const m = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header ?? "");
  if (!m) return null;
  return { t: Number(m[1]), v1: (m[2] as string).split(",v1=").slice(1) };
}

/**
 * The `v1` values a delivery should carry for `secrets`, in the same order.
 *
 * @example
 * expect(parseSignatures(header)?.v1).toEqual(await expectedSignatures([newSecret, oldSecret], t, body));
 */
export function expectedSignatures(secrets: string[], t: number, body: string): Promise<string[]> {
  return Promise.all(secrets.map((secret) => referenceHmac(secret, `${t}.${body}`)));
}
