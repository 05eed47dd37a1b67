import { describe, expect, it, vi } from "vitest";
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateSecret,
  SIGNATURE_HEADER,
  sign,
  signatureHeader,
  verifySignature,
} from "../../src/webhooks/signature";
import { referenceHmac } from "../helpers/signature";

// Computed once outside this code base with Node's crypto:
// createHmac("sha256", "whsec_test").update("1700000000.{}").digest("hex")
const NODE_VECTOR = "35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = '{"id":"evt_1","object":"event"}';
const T = 1_700_000_000;
// createHmac("sha256", SECRET).update(`${T}.${BODY}`).digest("hex")
const BODY_VECTOR = "1e58533e9136e20e64d0cc6a7d309ac7aeb8c42d5cfa02e63055723957723ba6";
// The same HMAC keyed with the base64url-DECODED secret part: what a wrong implementation would give.
const DECODED_KEY_VECTOR = "b00abdba789ad393f654698eabc190239f08ffb270d8731d90b5f03d765b47db";

async function verify(
  header: string | null | undefined,
  overrides: Partial<{ body: string; secret: string; nowSeconds: number; toleranceSeconds: number }> = {},
) {
  return verifySignature({ header, body: BODY, secret: SECRET, nowSeconds: T, ...overrides });
}

describe("webhook signing", () => {
  it("the header is called Service-Signature and the default tolerance is 300 seconds", () => {
    expect(SIGNATURE_HEADER).toBe("Service-Signature");
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  it("sign matches a vector computed with Node's crypto", async () => {
    expect(await sign("whsec_test", T, "{}")).toBe(NODE_VECTOR);
    expect(await sign(SECRET, T, BODY)).toBe(BODY_VECTOR);
  });

  it("sign matches an independent WebCrypto HMAC over the timestamp, a dot and the body", async () => {
    const body = '{"amount":"1210.00","name":"Café ñ 😀"}';
    expect(await sign(SECRET, 1_234_567_890, body)).toBe(await referenceHmac(SECRET, `1234567890.${body}`));
  });

  it("the signature is 64 lowercase hex characters", async () => {
    for (const t of [0, 1, T, 2_000_000_000]) {
      expect(await sign(SECRET, t, BODY)).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("the key is the whole secret string, whsec_ prefix included, not its decoded bytes", async () => {
    const withoutPrefix = SECRET.slice("whsec_".length);
    expect(await sign(SECRET, T, BODY)).not.toBe(await referenceHmac(withoutPrefix, `${T}.${BODY}`));
    expect(await sign(SECRET, T, BODY)).not.toBe(DECODED_KEY_VECTOR);
  });

  it("the timestamp and the body are both covered by the signature", async () => {
    const base = await sign(SECRET, T, BODY);
    expect(await sign(SECRET, T + 1, BODY)).not.toBe(base);
    expect(await sign(SECRET, T, `${BODY} `)).not.toBe(base);
  });

  it("signing rejects an empty secret and a timestamp that is not whole seconds", async () => {
    await expect(sign("", T, BODY)).rejects.toThrow(TypeError);
    await expect(sign(SECRET, 1.5, BODY)).rejects.toThrow(TypeError);
    await expect(sign(SECRET, -1, BODY)).rejects.toThrow(TypeError);
    await expect(sign(SECRET, Number.NaN, BODY)).rejects.toThrow(TypeError);
  });

  it("signatureHeader is t=<t>,v1=<hex>", async () => {
    expect(await signatureHeader("whsec_test", T, "{}")).toBe(`t=1700000000,v1=${NODE_VECTOR}`);
  });
});

describe("webhook secrets", () => {
  it("a secret is whsec_ followed by 32 bytes in unpadded base64url", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const b64 = secret.slice(6).replace(/-/g, "+").replace(/_/g, "/");
    expect(atob(`${b64}=`)).toHaveLength(32);
  });

  it("every secret is different", () => {
    const secrets = Array.from({ length: 1000 }, () => generateSecret());
    expect(new Set(secrets).size).toBe(1000);
  });

  it("a generated secret signs and verifies", async () => {
    const secret = generateSecret();
    const header = await signatureHeader(secret, T, BODY);
    expect(await verify(header, { secret })).toEqual({ ok: true, timestamp: T });
  });
});

describe("webhook verification", () => {
  it("a header made by signatureHeader verifies", async () => {
    const header = await signatureHeader(SECRET, T, BODY);
    expect(await verify(header)).toEqual({ ok: true, timestamp: T });
  });

  it("a header built from the Node vector verifies", async () => {
    const result = await verifySignature({
      header: `t=1700000000,v1=${NODE_VECTOR}`,
      body: "{}",
      secret: "whsec_test",
      nowSeconds: T,
    });
    expect(result).toEqual({ ok: true, timestamp: T });
  });

  it("a signature made with another secret is a mismatch", async () => {
    const header = await signatureHeader(generateSecret(), T, BODY);
    expect(await verify(header)).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("a body changed by one character is a mismatch", async () => {
    const header = await signatureHeader(SECRET, T, BODY);
    expect(await verify(header, { body: BODY.replace("evt_1", "evt_2") })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    expect(await verify(header, { body: `${BODY}\n` })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("a timestamp changed in the header is a mismatch", async () => {
    const header = (await signatureHeader(SECRET, T, BODY)).replace(`t=${T}`, `t=${T + 1}`);
    expect(await verify(header)).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("an uppercase hex signature is a mismatch: v1 is lowercase hex", async () => {
    expect(await verify(`t=${T},v1=${BODY_VECTOR.toUpperCase()}`)).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
  });

  it("a truncated or empty v1 value is a mismatch", async () => {
    expect(await verify(`t=${T},v1=${BODY_VECTOR.slice(0, 63)}`)).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    expect(await verify(`t=${T},v1=`)).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it.each([null, undefined, "", "   "])("a missing header (%j) is missing_header", async (header) => {
    expect(await verify(header)).toEqual({ ok: false, reason: "missing_header" });
  });

  it.each([
    ["no timestamp", `v1=${BODY_VECTOR}`],
    ["a non-numeric timestamp", `t=abc,v1=${BODY_VECTOR}`],
    ["a fractional timestamp", `t=1700000000.5,v1=${BODY_VECTOR}`],
    ["a negative timestamp", `t=-1700000000,v1=${BODY_VECTOR}`],
    ["an empty timestamp", `t=,v1=${BODY_VECTOR}`],
    ["a timestamp in milliseconds beyond 15 digits", `t=1700000000000000,v1=${BODY_VECTOR}`],
    ["two timestamps", `t=${T},t=${T},v1=${BODY_VECTOR}`],
    ["an item without =", `t=${T},${BODY_VECTOR}`],
    ["an item with an empty name", `t=${T},=${BODY_VECTOR}`],
    ["a trailing comma", `t=${T},v1=${BODY_VECTOR},`],
    ["the Standard Webhooks format", `v1,${BODY_VECTOR}`],
    ["plain text", "garbage"],
  ])("a header with %s is malformed_header", async (_, header) => {
    expect(await verify(header)).toEqual({ ok: false, reason: "malformed_header" });
  });

  it("a header with a timestamp but no v1 is no_signature", async () => {
    expect(await verify(`t=${T}`)).toEqual({ ok: false, reason: "no_signature" });
  });

  it("a header with only unknown schemes is no_signature", async () => {
    expect(await verify(`t=${T},v0=${BODY_VECTOR},v2=${BODY_VECTOR}`)).toEqual({
      ok: false,
      reason: "no_signature",
    });
  });

  it("several v1 values verify when one of them matches (secret rotation)", async () => {
    const oldSecret = generateSecret();
    const oldSig = await sign(oldSecret, T, BODY);
    const newSig = await sign(SECRET, T, BODY);
    expect(await verify(`t=${T},v1=${oldSig},v1=${newSig}`)).toEqual({ ok: true, timestamp: T });
    expect(await verify(`t=${T},v1=${newSig},v1=${oldSig}`)).toEqual({ ok: true, timestamp: T });
    expect(await verify(`t=${T},v1=${oldSig},v1=${"0".repeat(64)}`)).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
  });

  it("unknown schemes are ignored, in any position", async () => {
    const sig = await sign(SECRET, T, BODY);
    expect(await verify(`v0=abc,t=${T},v1=${sig},v2=def`)).toEqual({ ok: true, timestamp: T });
    expect(await verify(`v1=${sig},t=${T}`)).toEqual({ ok: true, timestamp: T });
  });

  it("spaces around items are tolerated", async () => {
    const sig = await sign(SECRET, T, BODY);
    expect(await verify(` t=${T} , v1=${sig} `)).toEqual({ ok: true, timestamp: T });
  });

  it.each([
    ["300 s old", T - 300, true],
    ["301 s old", T - 301, false],
    ["300 s in the future", T + 300, true],
    ["301 s in the future", T + 301, false],
  ])("a timestamp %s is accepted: %s", async (_, t, accepted) => {
    const header = await signatureHeader(SECRET, t, BODY);
    const result = await verify(header, { nowSeconds: T });
    expect(result).toEqual(
      accepted ? { ok: true, timestamp: t } : { ok: false, reason: "timestamp_outside_tolerance" },
    );
  });

  it("a custom tolerance is honoured", async () => {
    const header = await signatureHeader(SECRET, T - 61, BODY);
    expect(await verify(header, { toleranceSeconds: 60 })).toEqual({
      ok: false,
      reason: "timestamp_outside_tolerance",
    });
    expect(await verify(header, { toleranceSeconds: 61 })).toEqual({ ok: true, timestamp: T - 61 });
  });

  it("a stale header with a wrong signature reports the mismatch, not the time", async () => {
    const header = await signatureHeader(generateSecret(), T - 10_000, BODY);
    expect(await verify(header)).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("without nowSeconds the system clock is used", async () => {
    const now = Math.floor(Date.now() / 1000);
    const fresh = await signatureHeader(SECRET, now, BODY);
    const stale = await signatureHeader(SECRET, now - 3600, BODY);
    expect(await verifySignature({ header: fresh, body: BODY, secret: SECRET })).toEqual({
      ok: true,
      timestamp: now,
    });
    expect(await verifySignature({ header: stale, body: BODY, secret: SECRET })).toEqual({
      ok: false,
      reason: "timestamp_outside_tolerance",
    });
  });
  it("comparison goes through crypto.subtle.timingSafeEqual when the runtime has it", async () => {
    const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown };
    expect(typeof subtle.timingSafeEqual).toBe("function");
    const spy = vi.spyOn(crypto.subtle, "timingSafeEqual");
    try {
      const sig = await sign(SECRET, T, BODY);
      expect(await verify(`t=${T},v1=${"0".repeat(64)},v1=${sig}`)).toEqual({ ok: true, timestamp: T });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it("verification still works where timingSafeEqual does not exist (Node)", async () => {
    Object.defineProperty(crypto.subtle, "timingSafeEqual", { value: undefined, configurable: true });
    try {
      const sig = await sign(SECRET, T, BODY);
      expect(await verify(`t=${T},v1=${sig}`)).toEqual({ ok: true, timestamp: T });
      expect(await verify(`t=${T},v1=${sig.replace(/.$/, (c) => (c === "0" ? "1" : "0"))}`)).toEqual({
        ok: false,
        reason: "signature_mismatch",
      });
    } finally {
      Reflect.deleteProperty(crypto.subtle, "timingSafeEqual");
    }
    expect(typeof (crypto.subtle as SubtleCrypto & { timingSafeEqual?: unknown }).timingSafeEqual).toBe(
      "function",
    );
  });
});
