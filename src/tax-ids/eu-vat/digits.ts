/** What one country's rule says about a compacted VAT number body. */
export type Verdict = "valid" | "format" | "check_digits";

/** A member state's VAT number rule, written from python-stdnum's `stdnum/<cc>/vat.py` family. */
export type VatRule = {
  /** The accepted shape, for the error message. */
  shape: string;
  /** For a check letter, its name in the error message; "check digits" when omitted. */
  checkName?: "check letter";
  /** stdnum's `compact` beyond separator removal (a padded old format); identity when omitted. */
  compact?: (body: string) => string;
  check: (body: string) => Verdict;
};

/** Only ASCII digits, and at least one (stdnum's `isdigits`). */
export const isDigits = (s: string): boolean => /^[0-9]+$/.test(s);

/** Python's `%`: the result takes the sign of the divisor, so it is never negative here. */
export const mod = (n: number, m: number): number => ((n % m) + m) % m;

/** Σ weight × digit over the leading digits of `s` (stops at the shorter of the two, like `zip`). */
export function weighted(s: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.min(s.length, weights.length); i++) sum += weights[i]! * Number(s[i]);
  return sum;
}

/** The remainder of a decimal string of any length, folded digit by digit (no 2^53 overflow). */
export function modOfDigits(s: string, m: number): number {
  let rest = 0;
  for (const ch of s) rest = (rest * 10 + Number(ch)) % m;
  return rest;
}

/** ISO 7064 MOD 97-10 remainder of an alphanumeric string, letters read as A=10 … Z=35. */
export function mod97(chars: string): number {
  let rest = 0;
  for (const ch of chars) {
    const value = Number.parseInt(ch, 36);
    rest = (rest * (value > 9 ? 100 : 10) + value) % 97;
  }
  return rest;
}

/** Luhn checksum of a digit string: 0 for a valid number. */
export function luhn(s: string): number {
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    const d = Number(s[s.length - 1 - i]);
    sum += i % 2 === 0 ? d : Math.floor((2 * d) / 10) + ((2 * d) % 10);
  }
  return sum % 10;
}

/** ISO 7064 MOD 11-10 over a digit string, check digit included: valid when it returns 1. */
export function mod11x10(s: string): number {
  let check = 5;
  for (const ch of s) check = ((((check || 10) * 2) % 11) + Number(ch)) % 10;
  return check;
}

/** Whether year, month and day form a date of the proleptic Gregorian calendar. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** Turns a boolean check into a verdict. */
export const checked = (ok: boolean): Verdict => (ok ? "valid" : "check_digits");
