/**
 * Webhook signatures: `Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>`.
 *
 * This file has no imports on purpose: it uses only WebCrypto, TextEncoder and `Date.now()`,
 * so a receiver can copy it as is into any runtime with the Web Crypto API (Workers, Deno,
 * browsers, Node 20+).
 */

export const SIGNATURE_HEADER = "Service-Signature";

/** Largest accepted `|now - t|` in seconds, in both directions. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
const encoder = new TextEncoder();

/**
 * A new signing secret: `whsec_` followed by 32 random bytes in base64url without
 * padding (43 characters). The whole string, prefix included, is the HMAC key; receivers
 * never decode it.
 *
 * @example
 * generateSecret() // "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4kq1bZ3xVnE"
 */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64url = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${SECRET_PREFIX}${base64url}`;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The `v1` value: lowercase hex HMAC-SHA256 of `${timestamp}.${body}`, keyed with the UTF-8
 * bytes of the whole secret string (including `whsec_`).
 *
 * @example
 * await sign("whsec_test", 1700000000, "{}")
 * // "35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91"
 */
export async function sign(secret: string, timestamp: number, body: string): Promise<string> {
  if (secret.length === 0) throw new TypeError("secret must not be empty");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("timestamp must be a non-negative integer number of seconds");
  }
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return toHex(mac);
}

/**
 * The full `Service-Signature` header value for one delivery attempt: one `v1` per secret, in
 * the order given (while a secret is rotated: the new one, then the previous one, as Stripe).
 *
 * @example
 * await signatureHeader("whsec_test", 1700000000, "{}")
 * // "t=1700000000,v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91"
 * await signatureHeader(["whsec_new", "whsec_old"], 1700000000, "{}")
 * // "t=1700000000,v1=<with whsec_new>,v1=<with whsec_old>"
 */
export async function signatureHeader(
  secrets: string | readonly string[],
  timestamp: number,
  body: string,
): Promise<string> {
  const keys = typeof secrets === "string" ? [secrets] : secrets;
  const v1 = await Promise.all(keys.map((secret) => sign(secret, timestamp, body)));
  return [`t=${timestamp}`, ...v1.map((value) => `v1=${value}`)].join(",");
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason:
        | "missing_header"
        | "malformed_header"
        | "no_signature"
        | "timestamp_outside_tolerance"
        | "signature_mismatch";
    };

type ParsedHeader = { timestamp: number; signatures: string[] };

/** `null` when the header is not a list of `name=value` items with exactly one integer `t`. */
function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const rawItem of header.split(",")) {
    const item = rawItem.trim();
    const eq = item.indexOf("=");
    if (eq <= 0) return null;
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (name === "t") {
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (name === "v1") {
      signatures.push(value);
    }
    // Other schemes (v0, a future v2…) are ignored so that new schemes can be added.
  }
  return timestamp === null ? null : { timestamp, signatures };
}

type SubtleWithTimingSafeEqual = SubtleCrypto & {
  timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
};

/** Constant time in the content; the length (always 64 for a real `v1`) is not secret. */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const subtle = crypto.subtle as SubtleWithTimingSafeEqual;
  if (typeof subtle.timingSafeEqual === "function") return subtle.timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/**
 * Verifies a delivery. Call it on the raw body BEFORE parsing the JSON.
 *
 * Accepts the delivery when any `v1` value matches (several are sent while a secret is
 * rotated); ignores unknown schemes; compares in constant time; rejects when
 * `|now - t| > toleranceSeconds` (default 300), checked after the signature so that a
 * timestamp failure always means an authentic but stale (or replayed) delivery.
 * `nowSeconds` defaults to the system clock.
 *
 * @example
 * const body = await request.text();
 * const result = await verifySignature({
 *   header: request.headers.get(SIGNATURE_HEADER),
 *   body,
 *   secret: env.WEBHOOK_SECRET,
 * });
 * if (!result.ok) return new Response(result.reason, { status: 400 });
 * const event = JSON.parse(body);
 */
export async function verifySignature(input: {
  header: string | null | undefined;
  body: string;
  secret: string;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): Promise<VerifyResult> {
  const { header, body, secret } = input;
  if (header === null || header === undefined || header.trim() === "") {
    return { ok: false, reason: "missing_header" };
  }
  const parsed = parseHeader(header);
  if (parsed === null) return { ok: false, reason: "malformed_header" };
  if (parsed.signatures.length === 0) return { ok: false, reason: "no_signature" };

  const expected = encoder.encode(await sign(secret, parsed.timestamp, body));
  let matched = false;
  for (const candidate of parsed.signatures) {
    // No early exit: every candidate is compared.
    if (timingSafeEqual(encoder.encode(candidate), expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: "signature_mismatch" };

  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - parsed.timestamp) > tolerance) {
    return { ok: false, reason: "timestamp_outside_tolerance" };
  }
  return { ok: true, timestamp: parsed.timestamp };
}
