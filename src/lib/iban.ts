import { asciiUpperCase } from "./fields";
import { BBAN_STRUCTURES } from "./iban-registry";

export type IbanCheck =
  | { ok: true; value: string }
  | {
      ok: false;
      reason: "format" | "country" | "length" | "bban_format" | "check_digits" | "national_check_digits";
      message: string;
    };

const SEGMENT = /(\d+)!([nac])/g;
const CHAR_CLASS = { n: "[0-9]", a: "[A-Z]", c: "[0-9A-Z]" } as const;
const CHAR_NAME = { n: "digits", a: "letters", c: "letters or digits" } as const;

type Bban = { pattern: RegExp; length: number; description: string };

/** Turns "4!a6!n" into /^[A-Z]{4}[0-9]{6}$/, its length 10 and "4 letters, then 6 digits". */
function compile(structure: string): Bban {
  let source = "";
  let length = 0;
  const parts: string[] = [];
  for (const [, count, type] of structure.matchAll(SEGMENT)) {
    const t = type as keyof typeof CHAR_CLASS;
    source += `${CHAR_CLASS[t]}{${count}}`;
    length += Number(count);
    parts.push(`${count} ${CHAR_NAME[t]}`);
  }
  return { pattern: new RegExp(`^${source}$`), length, description: parts.join(", then ") };
}

const BBANS = new Map(Object.entries(BBAN_STRUCTURES).map(([cc, s]) => [cc, compile(s)]));

/** Total IBAN length (country code + check digits + BBAN) for every registry country. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries([...BBANS].map(([cc, { length }]) => [cc, 4 + length])),
);

/**
 * ISO 7064 MOD 97-10 remainder of an alphanumeric string read as base 10 after A=10 … Z=35.
 * Folding one character at a time keeps every intermediate below 97 * 100, far from 2^53.
 */
function mod97(chars: string): number {
  let rest = 0;
  for (const ch of chars) {
    const value = Number.parseInt(ch, 36);
    rest = (rest * (value > 9 ? 100 : 10) + value) % 97;
  }
  return rest;
}

// Spanish CCC control digit: weights are 2^i mod 11, result 11 - r, with 10 and 11 folded to 1 and 0.
const CCC_WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
function cccDigit(tenDigits: string): number {
  const r = [...tenDigits].reduce((sum, d, i) => sum + Number(d) * (CCC_WEIGHTS[i] as number), 0) % 11;
  return r < 2 ? r : 11 - r;
}

/** True when the DC pair of a Spanish BBAN (entidad 4, oficina 4, DC 2, cuenta 10) is right. */
function spanishDcOk(bban: string): boolean {
  const dc = `${cccDigit(`00${bban.slice(0, 8)}`)}${cccDigit(bban.slice(10))}`;
  return dc === bban.slice(8, 10);
}

function fail(reason: Exclude<IbanCheck, { ok: true }>["reason"], message: string): IbanCheck {
  return { ok: false, reason, message };
}

/**
 * Normalises an IBAN (whitespace removed, uppercased) and validates it against the registry:
 * characters, country, length, BBAN structure, MOD 97-10 check digits and, for Spain, the CCC
 * national check digits. Checks run in that order and the first failure is reported.
 *
 * @example
 * checkIban("de89 3704 0044 0532 0130 00") // { ok: true, value: "DE89370400440532013000" }
 * checkIban("DE8937040044053201300")      // { ok: false, reason: "length", message: "IBAN for DE must be 22 characters, got 21." }
 */
export function checkIban(input: string): IbanCheck {
  const value = asciiUpperCase(input.replace(/\s+/g, ""));
  if (value === undefined || !/^[A-Z0-9]+$/.test(value)) {
    return fail("format", "IBAN may contain only letters A-Z and digits 0-9.");
  }
  const country = value.slice(0, 2);
  const bban = BBANS.get(country);
  if (!bban) {
    return fail("country", `IBAN country code "${country}" is not in the IBAN registry.`);
  }
  if (value.length !== 4 + bban.length) {
    return fail("length", `IBAN for ${country} must be ${4 + bban.length} characters, got ${value.length}.`);
  }
  if (!bban.pattern.test(value.slice(4))) {
    return fail("bban_format", `IBAN account part for ${country} must be ${bban.description}.`);
  }
  // ISO 13616 check digits run 02..98; 00, 01 and 99 would alias 97, 98 and 02 under mod 97.
  const check = value.slice(2, 4);
  if (!/^(0[2-9]|[1-8][0-9]|9[0-8])$/.test(check) || mod97(value.slice(4) + value.slice(0, 4)) !== 1) {
    return fail("check_digits", "IBAN check digits are wrong.");
  }
  if (country === "ES" && !spanishDcOk(value.slice(4))) {
    return fail("national_check_digits", "Spanish IBAN national check digits (DC) are wrong.");
  }
  return { ok: true, value };
}
