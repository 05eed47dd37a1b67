/** The families of Spanish NIF, told apart by their first character. */
export type SpanishNifKind = "dni" | "nie" | "klm" | "entity";

export type SpanishNifCheck =
  | { ok: true; kind: SpanishNifKind }
  | { ok: false; reason: "format" }
  | { ok: false; reason: "control"; kind: SpanishNifKind };

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const ENTITY_LETTERS = "JABCDEFGHI";
// Commonly cited rule (not confirmed against Orden EHA/451/2008): these entity letters
// take a digit, these a letter; the others accept either.
const DIGIT_CONTROL = "ABEH";
const LETTER_CONTROL = "NPQRSW";

function kindOf(code: string): SpanishNifKind | undefined {
  // 00000000T passes, as in python-stdnum: it is compliance.md's sandbox value for "registry unavailable".
  if (/^\d{8}[A-Z]$/.test(code)) return "dni";
  if (/^[XYZ]\d{7}[A-Z]$/.test(code)) return "nie";
  if (/^[KLM]\d{7}[A-Z\d]$/.test(code)) return "klm";
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[A-Z\d]$/.test(code)) return "entity";
  return undefined;
}

function dniLetter(digits: string): string {
  return DNI_LETTERS[Number(digits) % 23]!;
}

/** Luhn-like sum over the 7 digits: odd positions doubled (digits of the product summed). */
function entityControlDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    sum += i % 2 === 0 ? Math.floor((2 * d) / 10) + ((2 * d) % 10) : d;
  }
  return (10 - (sum % 10)) % 10;
}

function controlMatches(kind: SpanishNifKind, code: string): boolean {
  const first = code[0]!;
  const digits = code.slice(1, 8);
  const control = code[8]!;
  switch (kind) {
    case "dni":
      return control === dniLetter(code.slice(0, 8));
    case "nie":
      return control === dniLetter(String("XYZ".indexOf(first)) + digits);
    case "klm":
      // K, L and M follow python-stdnum: the DNI letter over the 7 digits, as these
      // codes stand in for a DNI or NIE. gobl checks them with the entity algorithm
      // instead; no primary source settles it.
      return control === dniLetter(digits);
    case "entity": {
      const d = entityControlDigit(digits);
      const isDigit = control === String(d);
      const isLetter = control === ENTITY_LETTERS[d];
      if (DIGIT_CONTROL.includes(first)) return isDigit;
      if (LETTER_CONTROL.includes(first)) return isLetter;
      return isDigit || isLetter;
    }
  }
}

/**
 * Checks a normalised Spanish NIF (9 characters, uppercase, no `ES` prefix) and says
 * which part failed: its shape, or the control character of the kind it looks like.
 *
 * @example
 * checkSpanishNif("12345678Z"); // { ok: true, kind: "dni" }
 * checkSpanishNif("12345678A"); // { ok: false, reason: "control", kind: "dni" }
 */
export function checkSpanishNif(code: string): SpanishNifCheck {
  const kind = kindOf(code);
  if (kind === undefined) return { ok: false, reason: "format" };
  return controlMatches(kind, code) ? { ok: true, kind } : { ok: false, reason: "control", kind };
}

/**
 * Whether `code` is a valid DNI, NIE, K/L/M NIF or entity NIF (ex-CIF), normalised.
 *
 * @example
 * isValidSpanishNif("B12345674"); // true
 */
export function isValidSpanishNif(code: string): boolean {
  return checkSpanishNif(code).ok;
}
