import * as z from "zod";

/**
 * Decimal arithmetic for money: amounts are integers of the currency's minor unit (`bigint`),
 * decimal inputs are strings, and no float is ever involved.
 */

/** `units × 10^-scale`; `scale` ≥ 0. `{ units: 33333n, scale: 3 }` is 33.333. */
export type Decimal = { units: bigint; scale: number };

// No exponent, no "+", no leading "." or spaces, and no leading zeros ("007", "-01"): one
// spelling per whole part, which also bounds the length of any value the schemas accept.
const DECIMAL = /^(-?(?:0|[1-9]\d*))(?:\.(\d+))?$/;

/**
 * Parses a strict decimal string. The scale is the number of decimals as written, trailing zeros
 * included, so callers can limit the decimals a client sends.
 *
 * @example
 * parseDecimal("33.333"); // { units: 33333n, scale: 3 }
 * parseDecimal("1.50");   // { units: 150n, scale: 2 }
 * parseDecimal("1e3");    // null (as are "+1", ".5", "01", " 1")
 */
export function parseDecimal(s: string): Decimal | null {
  const m = DECIMAL.exec(s);
  if (!m) return null;
  const fraction = m[2] ?? "";
  // BigInt("-0") is 0n, so "-0" and "-0.00" parse to zero.
  return { units: BigInt(`${m[1]}${fraction}`), scale: fraction.length };
}

/**
 * A percentage string: a decimal (as `parseDecimal`) followed by "%". Returns the number before
 * the sign, so "21%" is 21.
 *
 * @example
 * parsePercent("5.2%");  // { units: 52n, scale: 1 }
 * parsePercent("21");    // null
 */
export function parsePercent(s: string): Decimal | null {
  return s.endsWith("%") ? parseDecimal(s.slice(0, -1)) : null;
}

const pow10 = (n: number) => 10n ** BigInt(n);
const abs = (n: bigint) => (n < 0n ? -n : n);

/** `units` (at `scale`) as a string with exactly `scale` decimals; zero is never "-0". */
function fixed(units: bigint, scale: number): string {
  const digits = abs(units)
    .toString()
    .padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const sign = units < 0n ? "-" : "";
  return scale === 0 ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(-scale)}`;
}

/**
 * The shortest string for a decimal: no trailing zeros, no "-0".
 *
 * @example
 * canonicalDecimal({ units: 3000n, scale: 3 });  // "3"
 * canonicalDecimal({ units: -50n, scale: 2 });   // "-0.5"
 */
export function canonicalDecimal(d: Decimal): string {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return fixed(units, scale);
}

/**
 * Rescales `units` from `fromScale` to `toScale` decimals, rounding half away from zero.
 *
 * @example
 * roundToScale(99999n, 3, 2); // 10000n (99.999 → 100.00)
 * roundToScale(-5n, 3, 2);    // -1n    (-0.005 → -0.01)
 * roundToScale(25n, 1, 0);    // 3n     (2.5 → 3)
 */
export function roundToScale(units: bigint, fromScale: number, toScale: number): bigint {
  if (toScale >= fromScale) return units * pow10(toScale - fromScale);
  const divisor = pow10(fromScale - toScale);
  const magnitude = abs(units);
  // bigint division truncates; a remainder of at least half the divisor rounds the magnitude up.
  const rounded = magnitude / divisor + (2n * (magnitude % divisor) >= divisor ? 1n : 0n);
  return units < 0n ? -rounded : rounded;
}

/**
 * `a × b` rounded half away from zero to a currency's minor units (`exponent` decimals).
 *
 * @example
 * multiplyToMinor(parseDecimal("3")!, parseDecimal("33.333")!, 2); // 10000n (100.00)
 */
export function multiplyToMinor(a: Decimal, b: Decimal, exponent: number): bigint {
  return roundToScale(a.units * b.units, a.scale + b.scale, exponent);
}

/**
 * `base × rate / 100` rounded half away from zero, in the minor units of `base`: the currency's
 * exponent cancels out, so it is not a parameter.
 *
 * @example
 * percentOfMinor(10000n, parsePercent("21%")!); // 2100n (21 % of 100.00 is 21.00)
 * percentOfMinor(1000n, parsePercent("0.625%")!); // 6n (6.25 rounds to 6)
 */
export function percentOfMinor(base: bigint, rate: Decimal): bigint {
  return roundToScale(base * rate.units, rate.scale + 2, 0);
}

/**
 * Minor units as a decimal string with exactly `exponent` decimals, "-" for negatives.
 *
 * @example
 * formatMinor(121000n, 2); // "1210.00"
 * formatMinor(1210n, 0);   // "1210"
 * formatMinor(1210n, 3);   // "1.210"
 * formatMinor(-50n, 2);    // "-0.50"
 */
export function formatMinor(minor: bigint, exponent: number): string {
  return fixed(minor, exponent);
}

/** The largest amount, in minor units, that any line or total may reach (either sign). */
export const MAX_MINOR = 10n ** 15n;

/**
 * Whether an amount in minor units is within ±`MAX_MINOR` (bounds included).
 *
 * @example
 * withinBound(10n ** 15n);      // true
 * withinBound(-(10n ** 15n) - 1n); // false
 */
export function withinBound(minor: bigint): boolean {
  return abs(minor) <= MAX_MINOR;
}

/** Whether |d| ≤ `limit` (a whole number). */
function absAtMost(d: Decimal, limit: bigint): boolean {
  return abs(d.units) <= limit * pow10(d.scale);
}

/** The longest number string a request field takes ("-1000000000000.000000" is 21). */
export const MAX_NUMBER_CHARS = 32;

/**
 * A request field holding a number as a string. The output is the string as sent (the compute
 * step parses it); `problem` returns a message when the parsed value is out of bounds.
 */
function numberString(
  kind: "decimal" | "percentage",
  example: string,
  problem: (d: Decimal) => string | null,
) {
  const parse = kind === "decimal" ? parseDecimal : parsePercent;
  return z
    .string({ error: `must be a ${kind} string such as "${example}", not a JSON number` })
    .superRefine((s, ctx) => {
      // Every value in bounds is far shorter; a longer one is not parsed (BigInt of a
      // million digits costs ~60 ms of CPU).
      const d = s.length > MAX_NUMBER_CHARS ? undefined : parse(s);
      const message =
        d === undefined
          ? `must be a ${kind} string of at most ${MAX_NUMBER_CHARS} characters`
          : d === null
            ? `must be a ${kind} string such as "${example}"`
            : problem(d);
      if (message !== null) ctx.addIssue({ code: "custom", message });
    });
}

/** The JSON Schema of a decimal string (the language of `parseDecimal`), for the OpenAPI document. */
const DECIMAL_STRING = { pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$", maxLength: MAX_NUMBER_CHARS };

/** A line quantity: decimal string > 0, at most 6 decimals, at most 1,000,000,000. Output: the string. */
export const quantity = numberString("decimal", "2.5", (d) => {
  if (d.scale > 6) return "must have at most 6 decimals";
  if (d.units <= 0n) return "must be greater than 0";
  if (!absAtMost(d, 1_000_000_000n)) return "must be at most 1000000000";
  return null;
}).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: "A decimal string greater than 0, at most 6 decimals and 1,000,000,000.",
        ...DECIMAL_STRING,
        examples: ["2.5", "1"],
      },
);

/** A unit price: decimal string, may be negative, at most 6 decimals, |x| ≤ 10^12. Output: the string. */
export const unitPrice = numberString("decimal", "33.333", (d) => {
  if (d.scale > 6) return "must have at most 6 decimals";
  if (!absAtMost(d, 1_000_000_000_000n)) return "must be between -1000000000000 and 1000000000000";
  return null;
}).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description:
          "A decimal string, negative allowed, at most 6 decimals, |x| ≤ 10^12, in the invoice currency.",
        ...DECIMAL_STRING,
        examples: ["100.00", "33.333"],
      },
);

/**
 * A payment amount: decimal string > 0, at most 10^12. Output: the string; the currency's
 * decimals are checked where the currency is known (`toMinor`).
 */
export const positiveAmount = numberString("decimal", "50.00", (d) => {
  if (d.units <= 0n) return "must be greater than 0";
  if (!absAtMost(d, 1_000_000_000_000n)) return "must be at most 1000000000000";
  return null;
}).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: "A decimal string greater than 0, at most the currency's decimals.",
        ...DECIMAL_STRING,
        examples: ["50.00"],
      },
);

/**
 * A decimal string in minor units of a currency with `exponent` decimals, or null when it has
 * more decimals than that (or is not a decimal).
 *
 * @example
 * toMinor("50.5", 2); // 5050n
 * toMinor("0.001", 2); // null
 */
export function toMinor(s: string, exponent: number): bigint | null {
  const d = parseDecimal(s);
  return d && d.scale <= exponent ? roundToScale(d.units, d.scale, exponent) : null;
}

/** A custom tax rate: "0%" to "100%", at most 4 decimals ("10%", "7.5%"). Output: the string. */
export const customRate = numberString("percentage", "7.5%", (d) => {
  if (d.scale > 4) return "must have at most 4 decimals";
  if (d.units < 0n || !absAtMost(d, 100n)) return "must be between 0% and 100%";
  return null;
}).meta(
  globalThis.OMIT_API_DOCS
    ? {}
    : {
        description: 'A percentage string from "0%" to "100%", at most 4 decimals.',
        pattern: "^(0|[1-9][0-9]*)(\\.[0-9]+)?%$",
        maxLength: MAX_NUMBER_CHARS,
        examples: ["7.5%", "10%"],
      },
);
