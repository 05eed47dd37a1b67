// Field builders shared by every input schema: what a string must be before it is stored.
import * as z from "zod";

// C0 and C1 control characters (tab and newline included) are never valid in a field.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

// U+FFFE and U+FFFF are not characters, and XML cannot hold them: accepted, a name or a line
// description would stop the invoice's VERI*FACTU record (and its chain) from being written.
const NONCHARACTER = /[\ufffe\uffff]/;

/** Well-formed UTF-16 (no lone surrogate) without U+FFFE or U+FFFF. */
function isValidUnicode(s: string): boolean {
  return s.isWellFormed() && !NONCHARACTER.test(s);
}

// Unicode's explicit directional formatting characters (UAX #9 §2.1–2.4): the embeddings and
// overrides LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and the isolates LRI, RLI, FSI, PDI
// (U+2066–U+2069). Each opens or closes a scope that reorders the characters after it, and one
// left open in a name reorders what a PDF viewer or an XML reader shows next to it: the
// "Trojan Source" attack (CVE-2021-42574) on displayed text. Nothing a name, an address or a
// description says needs them. The implicit marks LRM, RLM and ALM (U+200E, U+200F, U+061C)
// stay: each acts as one strong letter of its direction with no scope (UAX #9 §2.6), so it can
// do nothing a Hebrew or Latin letter cannot, and right-to-left writers type them. ZWNJ and
// ZWJ (U+200C, U+200D) are not directional and Persian and Indic spellings need them.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const BIDI_MESSAGE =
  "must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)";

/**
 * A single-line string: valid Unicode (no lone surrogate, no U+FFFE/U+FFFF), no control
 * characters, no bidirectional embedding, override or isolate, 1 to `max` characters. What passes is stored and returned exactly as sent.
 */
export function text(max: number) {
  return z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine(isValidUnicode, "must be valid Unicode")
    .refine((s) => !CONTROL.test(s), "must not contain control characters")
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE);
}

/**
 * An object's id sent to name it (a filter, a reference in a body): single-line text like any
 * other field, and anything longer than an id is no id. Whether it exists is the route's check.
 */
export const objectId = text(64);

// The same, but line breaks and tabs are part of free text such as invoice notes.
const CONTROL_EXCEPT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Free text of up to `max` characters: valid Unicode, line breaks and tabs allowed, no other
 * control characters, no bidirectional embedding, override or isolate.
 */
export function multilineText(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(isValidUnicode, "must be valid Unicode")
    .refine(
      (s) => !CONTROL_EXCEPT_LAYOUT.test(s),
      "must not contain control characters other than line breaks and tabs",
    )
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE);
}

const ASCII = /^[\u0000-\u007f]*$/;

/**
 * `s` uppercased, or `undefined` when it holds a character outside ASCII. JavaScript's
 * uppercasing turns some non-ASCII letters into ASCII ones ("ſ" → "S", "ß" → "SS", "ı" → "I",
 * "ﬁ" → "FI"), so a look-alike would pass a check of A–Z made after it: check ASCII first.
 * Every value the API uppercases goes through here.
 *
 * @example
 * asciiUpperCase("es"); // "ES"
 * asciiUpperCase("ſe"); // undefined
 */
export function asciiUpperCase(s: string): string | undefined {
  return ASCII.test(s) ? s.toUpperCase() : undefined;
}

/**
 * A string field that is uppercased on input: ASCII (`asciiUpperCase`) that passes `valid`
 * once uppercased, else 400 with `message`.
 *
 * @example
 * const currency = upperCaseCode((s) => /^[A-Z]{3}$/.test(s), "must be an ISO 4217 currency code");
 */
export function upperCaseCode(valid: (upper: string) => boolean, message: string) {
  return z.string().transform((s, ctx) => {
    const upper = asciiUpperCase(s);
    if (upper !== undefined && valid(upper)) return upper;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  });
}

/**
 * A string of at most `max` characters that `check` normalises (the value kept) or refuses
 * (its message, as a 400 on the field).
 *
 * @example
 * const iban = checkedString(64, checkIban); // "es91 2100 …" → "ES9121000418450200051332"
 */
export function checkedString(
  max: number,
  check: (raw: string) => { ok: true; value: string } | { ok: false; message: string },
) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((raw, ctx) => {
      const result = check(raw);
      if (result.ok) return result.value;
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    });
}
