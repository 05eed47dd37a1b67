// Member states whose VAT number comes in several kinds (a company's number, a person's code,
// an old format), each kind checked as python-stdnum's module for that country checks it.
import {
  checked,
  isCalendarDate,
  isDigits,
  mod,
  mod97,
  modOfDigits,
  type VatRule,
  type Verdict,
  weighted,
} from "./digits";
import { birthNumber, cnp, egn, latvianPersonalDigit, pnf } from "./personal";

/** bg/vat.py, 9 digits: Σ(i+1)·d mod 11, retried with weights i+3 when that gives 10. */
function bgLegalDigit(n: string): string {
  let check = weighted(n, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
  if (check === 10) check = weighted(n, [3, 4, 5, 6, 7, 8, 9, 10]) % 11;
  return String(check % 10);
}

/** cz/dic.py: 8-digit legal entities, 9-digit "special" numbers starting with 6, else a birth number. */
function czDic(n: string): Verdict {
  if (!isDigits(n)) return "format";
  if (n.length === 8) {
    if (n[0] === "9") return "format";
    const check = mod(11 - weighted(n, [8, 7, 6, 5, 4, 3, 2]), 11);
    return checked(String((check || 1) % 10) === n[7]);
  }
  if (n.length === 9 && n[0] === "6") {
    const check = weighted(n.slice(1), [8, 7, 6, 5, 4, 3, 2]) % 11;
    return checked(String(mod(8 - ((10 - check) % 11), 10)) === n[8]);
  }
  return birthNumber(n);
}

// ie/vat.py: the check letter alphabet, W standing for 0.
const IE_ALPHABET = "WABCDEFGHIJKLMNOPQRSTUV";

/** Seven digits (left-padded) and an optional 8th letter give the IE check letter. */
function ieLetter(s: string): string {
  const n = s.padStart(7, "0");
  return IE_ALPHABET[(weighted(n, [8, 7, 6, 5, 4, 3, 2]) + 9 * IE_ALPHABET.indexOf(n.slice(7))) % 23]!;
}

function ieVat(n: string): Verdict {
  if (!isDigits(n.slice(0, 1)) || !isDigits(n.slice(2, 7))) return "format";
  if (![...n.slice(7)].every((c) => IE_ALPHABET.includes(c))) return "format";
  if (n.length !== 8 && n.length !== 9) return "format";
  // New format: 7 digits, the check letter, and since 2013 an optional second letter.
  if (isDigits(n.slice(0, 7))) return checked(n[7] === ieLetter(n.slice(0, 7) + n.slice(8)));
  // Old format: digit, letter, 5 digits, check letter over the 5 digits and the first one.
  return checked(n[7] === ieLetter(n.slice(2, 7) + n[0]));
}

/** lt/pvm.py: weights 1–9 repeating, mod 11; when that gives 10, weights 3–9, 1, 2… instead. */
function ltDigit(n: string): string {
  let check = 0;
  for (let i = 0; i < n.length; i++) check += (1 + (i % 9)) * Number(n[i]);
  if (check % 11 === 10) {
    check = 0;
    for (let i = 0; i < n.length; i++) check += (1 + ((i + 2) % 9)) * Number(n[i]);
  }
  return String((check % 11) % 10);
}

/** nl/bsn.py: Σ(9−i)·d over 8 digits minus the 9th is divisible by 11. */
function isBsn(n: string): boolean {
  return !/^0+$/.test(n) && mod(weighted(n, [9, 8, 7, 6, 5, 4, 3, 2]) - Number(n[8]), 11) === 0;
}

export const MULTI_RULES: Record<string, VatRule> = {
  // bg/vat.py: 9 digits for companies; 10 for an EGN, a PNF or another person.
  BG: {
    shape: "9 or 10 digits",
    check: (n) => {
      if (!isDigits(n)) return "format";
      if (n.length === 9) return checked(bgLegalDigit(n.slice(0, 8)) === n[8]);
      if (n.length !== 10) return "format";
      const other = String(mod(11 - weighted(n, [4, 3, 2, 7, 6, 5, 4, 3, 2]), 11));
      return checked(egn(n) === "valid" || pnf(n) === "valid" || other === n[9]);
    },
  },
  CZ: {
    shape: "8 digits not starting with 9, or a 9 or 10-digit birth number holding a real date",
    check: czDic,
  },
  IE: {
    shape: "7 digits and 1 or 2 letters from A to W, or the old digit, letter, 5 digits and letter",
    checkName: "check letter",
    check: ieVat,
  },
  // lt/pvm.py: 9 digits for companies (8th is 1), 12 for temporary payers (11th is 1).
  LT: {
    shape: "9 digits with 1 as the 8th, or 12 digits with 1 as the 11th",
    check: (n) => {
      if (!isDigits(n)) return "format";
      if (!((n.length === 9 && n[7] === "1") || (n.length === 12 && n[10] === "1"))) return "format";
      return checked(ltDigit(n.slice(0, -1)) === n.at(-1));
    },
  },
  // lv/pvn.py: a company (first digit above 3) or a personal code (32…, or DDMMYY and a century digit).
  LV: {
    shape: "11 digits; a personal code that starts with a birth date must hold a real date",
    check: (n) => {
      if (!isDigits(n) || n.length !== 11) return "format";
      if (n[0]! > "3") return checked(weighted(n, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 === 3);
      if (!n.startsWith("32")) {
        const year = 1800 + Number(n[6]) * 100 + Number(n.slice(4, 6));
        if (!isCalendarDate(year, Number(n.slice(2, 4)), Number(n.slice(0, 2)))) return "format";
      }
      return checked(latvianPersonalDigit(n) === n[10]);
    },
  },
  // nl/btw.py: RSIN/BSN, B, 2-digit suffix; the BSN check or, for sole traders' numbers
  // since 2020, ISO 7064 MOD 97-10 over "NL" and the whole number.
  NL: {
    shape: "9 digits, B and 2 digits other than 00",
    compact: (n) => n.slice(0, -3).padStart(9, "0") + n.slice(-3),
    check: (n) => {
      if (!isDigits(n.slice(0, 9)) || /^0+$/.test(n.slice(0, 9))) return "format";
      if (!isDigits(n.slice(10)) || /^0+$/.test(n.slice(10))) return "format";
      if (n.length !== 12 || n[9] !== "B") return "format";
      return checked(isBsn(n.slice(0, 9)) || mod97(`NL${n}`) === 1);
    },
  },
  // ro/cf.py: a 13-digit CNP, or a CUI of 2 to 10 digits.
  RO: {
    shape: "2 to 10 digits not starting with 0, or a 13-digit CNP",
    check: (n) => {
      if (n.length === 13) return cnp(n);
      if (!isDigits(n) || n[0] === "0" || n.length < 2 || n.length > 10) return "format";
      const body = n.slice(0, -1).padStart(9, "0");
      return checked(String(((10 * weighted(body, [7, 5, 3, 2, 1, 7, 5, 3, 2])) % 11) % 10) === n.at(-1));
    },
  },
  // sk/dph.py: a birth number, or a company number divisible by 11 whose 3rd digit is 2, 3, 4, 7, 8 or 9.
  SK: {
    shape: "10 digits; a company's does not start with 0 and has 2, 3, 4, 7, 8 or 9 as its 3rd digit",
    check: (n) => {
      if (!isDigits(n) || n.length !== 10) return "format";
      if (birthNumber(n) === "valid") return "valid";
      if (n[0] === "0" || !"234789".includes(n[2]!)) return "format";
      return checked(modOfDigits(n, 11) === 0);
    },
  },
};
