/// <reference types="vite/client" />
/**
 * The verifier we publish for receivers (scripts/receiver.mjs, and the same code in
 * docs/webhooks.md): whatever a sender puts in the header, it answers true or false and never throws.
 * A throw would be a 500 from the receiver, or a crashed process, on a forged request.
 * The tests run in workerd with Node compatibility, where `node:crypto` behaves as in Node.
 */
import { describe, expect, it } from "vitest";
import guide from "../../docs/webhooks.md?raw";
import { verify } from "../../scripts/receiver.mjs";
import script from "../../scripts/receiver.mjs?raw";
import { referenceHmac } from "../helpers/signature";

const KEY = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = '{"id":"evt_1","object":"event","type":"customer.created"}';
const NOW = 1_700_000_000;

const signed = (t = NOW, body = BODY) => referenceHmac(KEY, `${t}.${body}`);

/** `verify` with this file's key, body and clock; a throw fails the test with its message. */
const check = (header: unknown, nowSeconds = NOW) => verify(header, BODY, KEY, nowSeconds);

describe("the published receiver verifier: genuine headers", () => {
  it("a header as the service sends it verifies", async () => {
    expect(check(`t=${NOW},v1=${await signed()}`)).toBe(true);
  });

  it("spaces around items are tolerated and unknown schemes ignored", async () => {
    expect(check(` v0=abc , t=${NOW} , v1=${await signed()} `)).toBe(true);
  });

  it("a valid v1 among invalid ones verifies (secret rotation), whatever comes before it", async () => {
    const junk = ["é".repeat(64), "0".repeat(63), "0".repeat(65), "z".repeat(64), "", "0".repeat(64)];
    const header = `t=${NOW},${junk.map((v) => `v1=${v}`).join(",")},v1=${await signed()}`;
    expect(check(header)).toBe(true);
  });

  it.each([
    ["300 s old", true, NOW - 300],
    ["301 s old", false, NOW - 301],
    ["300 s ahead", true, NOW + 300],
    ["301 s ahead", false, NOW + 301],
  ])("a timestamp %s is accepted: %s (tolerance)", async (_, accepted, t) => {
    expect(check(`t=${t},v1=${await signed(t)}`)).toBe(accepted);
  });

  it("a signature over another body or timestamp is rejected", async () => {
    expect(check(`t=${NOW},v1=${await signed(NOW, `${BODY} `)}`)).toBe(false);
    expect(check(`t=${NOW},v1=${await signed(NOW - 1)}`)).toBe(false);
  });
});

describe("the published receiver verifier: hostile headers are rejected without throwing", () => {
  it.each([
    ["64 two-byte characters", "é".repeat(64)],
    ["64 UTF-16 units of emoji", "😀".repeat(32)],
    ["63 hex characters and one multibyte one", `${"a".repeat(63)}é`],
    ["63 hex characters", "a".repeat(63)],
    ["65 hex characters", "a".repeat(65)],
    ["64 non-hex characters", "z".repeat(64)],
    ["an empty value", ""],
  ])("a v1 of %s", async (_, v1) => {
    expect(check(`t=${NOW},v1=${v1}`)).toBe(false);
  });

  it("the genuine signature in upper case is rejected: v1 is lowercase hex", async () => {
    expect(check(`t=${NOW},v1=${(await signed()).toUpperCase()}`)).toBe(false);
  });

  it("a v1 without a value (no =) is rejected", async () => {
    expect(check(`t=${NOW},v1`)).toBe(false);
    expect(check(`t=${NOW},v1,v1=${"é".repeat(64)}`)).toBe(false);
  });

  it.each([
    ["no t", (sig: string) => `v1=${sig}`],
    ["an empty t", (sig: string) => `t=,v1=${sig}`],
    ["a t that is not a number", (sig: string) => `t=abc,v1=${sig}`],
    ["a t in exponent notation", (sig: string) => `t=17e8,v1=${sig}`],
    ["a negative t", (sig: string) => `t=-${NOW},v1=${sig}`],
    ["a t of 400 digits", (sig: string) => `t=${"9".repeat(400)},v1=${sig}`],
    ["a t without a value", (sig: string) => `t,v1=${sig}`],
    ["two t items, the signed one first", (sig: string) => `t=${NOW},t=${NOW + 1},v1=${sig}`],
    ["two equal t items", (sig: string) => `t=${NOW},t=${NOW},v1=${sig}`],
  ])("a header with %s is rejected, even with a genuine v1", async (_, build) => {
    expect(check(build(await signed()))).toBe(false);
  });

  it.each([
    ["no header", undefined],
    ["null", null],
    ["an empty header", ""],
    ["commas only", ",,,,"],
    ["equals signs only", "===="],
    ["a header given twice (an array)", [`t=${NOW}`, `v1=${"0".repeat(64)}`]],
    ["a number", 42],
  ])("%s is rejected", (_, header) => {
    expect(check(header)).toBe(false);
  });

  it("a 1 MB header is rejected without throwing", () => {
    const header = `t=${NOW},${"v1=é,".repeat(200_000)}v1=${"é".repeat(64)}`;
    expect(header.length).toBeGreaterThan(1_000_000);
    expect(check(header)).toBe(false);
  });

  it("10,000 v1 values, none right and half of them multibyte, are rejected", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? "é" : "0").repeat(64));
    expect(check(`t=${NOW},${values.map((v) => `v1=${v}`).join(",")}`)).toBe(false);
  });
});

describe("the receiver in docs/webhooks.md", () => {
  /** The `verify` function's text, without comments, spacing or the named tolerance. */
  const verifyText = (source: string) => {
    const start = source.indexOf("export function verify(");
    const end = source.indexOf("\n}\n", start);
    expect(start, "verify not found").toBeGreaterThanOrEqual(0);
    return source
      .slice(start, end)
      .replace(/\/\*\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "")
      .replace(/TOLERANCE_SECONDS/g, "300")
      .replace(/\s+/g, "");
  };

  it("the guide's verify is the script's verify, comments aside", () => {
    expect(verifyText(guide)).toBe(verifyText(script));
  });
});
