/**
 * Verifies a webhook delivery's `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`.
 * Web Crypto only (no imports), so it runs as is in Node 20+, Deno, Bun and Workers.
 */

/** Largest accepted `|now - t|`: a replayed delivery older than this is refused. */
export const TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/**
 * True when the delivery is authentic and fresh. Call it on the raw body BEFORE parsing it.
 * Any one `v1` may match: while a secret is being rotated, a delivery carries one per secret.
 * Whatever the header holds, it answers false rather than throwing.
 *
 * @example
 * if (!(await verifySignature(req.headers["service-signature"], rawBody, secret))) reject(400);
 */
export async function verifySignature(
  header: unknown,
  rawBody: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  if (typeof header !== "string" || secret === "") return false;
  const items = header.split(",").map((item) => item.trim().split("="));
  const timestamps = items.filter(([name]) => name === "t").map(([, value]) => value);
  const signatures = items
    .filter(([name, value]) => name === "v1" && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .map(([, value]) => hexToBytes(value as string));
  const t = timestamps[0];
  // Exactly one t: with two, which one was signed would be the sender's choice.
  if (timestamps.length !== 1 || t === undefined || !/^\d{1,15}$/.test(t)) return false;
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) return false;

  // The key is the UTF-8 bytes of the whole secret, `whsec_` included; it is never decoded.
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const signed = encoder.encode(`${t}.${rawBody}`);
  for (const signature of signatures) {
    // subtle.verify recomputes the HMAC and compares in constant time: never compare with ===.
    if (await crypto.subtle.verify("HMAC", key, signature, signed)) return true;
  }
  return false;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
