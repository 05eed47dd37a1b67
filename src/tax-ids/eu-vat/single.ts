// Member states with one kind of VAT number, each as python-stdnum's module for it checks it
// (named per rule). A failed length, character class or fixed component is a "format" failure;
// only a wrong check digit or letter is "check_digits".
import { checked, isDigits, luhn, mod, mod11x10, modOfDigits, type VatRule, weighted } from "./digits";

/** A rule for "exactly `length` digits" (optionally not starting with 0) plus a check. */
const digits = (length: number, noLeadingZero: boolean, check: (n: string) => boolean) => (n: string) => {
  if (!isDigits(n) || (noLeadingZero && n[0] === "0")) return "format" as const;
  if (n.length !== length) return "format" as const;
  return checked(check(n));
};

const CY_EVEN_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
// FR check characters: digits and letters without I and O.
const FR_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function frCheck(n: string): boolean {
  if (isDigits(n.slice(0, 2))) return Number(n.slice(0, 2)) === modOfDigits(`${n.slice(2)}12`, 97);
  const first = FR_ALPHABET.indexOf(n[0]!);
  const second = FR_ALPHABET.indexOf(n[1]!);
  // The "new" key of letters: stdnum's reading of the DGFiP rule.
  const check = isDigits(n[0]!) ? first * 24 + second - 10 : first * 34 + second - 100;
  return (modOfDigits(n.slice(2), 11) + 1 + Math.floor(check / 11)) % 11 === check % 11;
}

export const SINGLE_RULES: Record<string, VatRule> = {
  // at/uid.py: U, 7 digits, then (6 − Luhn checksum of the 7) mod 10.
  AT: {
    shape: "U followed by 8 digits",
    check: (n) => {
      if (n[0] !== "U" || !isDigits(n.slice(1)) || n.length !== 9) return "format";
      return checked(String(mod(6 - luhn(n.slice(1, 8)), 10)) === n[8]);
    },
  },
  // be/vat.py: the first 8 digits plus the last 2 are divisible by 97; old numbers had 9 digits.
  BE: {
    shape: "10 digits starting with 0 or 1, or an old 9-digit number",
    compact: (n) => (n.length === 9 ? `0${n}` : n),
    check: (n) => {
      if (!isDigits(n) || /^0+$/.test(n) || n.length !== 10 || !"01".includes(n[0]!)) return "format";
      return checked((Number(n.slice(0, 8)) + Number(n.slice(8))) % 97 === 0);
    },
  },
  // cy/vat.py: 8 digits and a check letter; numbers starting with 12 are not issued.
  CY: {
    shape: "8 digits and a letter, not starting with 12",
    checkName: "check letter",
    check: (n) => {
      if (!isDigits(n.slice(0, -1)) || n.length !== 9 || n.startsWith("12")) return "format";
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += i % 2 === 0 ? CY_EVEN_VALUES[Number(n[i])]! : Number(n[i]);
      return checked(String.fromCharCode(65 + (sum % 26)) === n[8]);
    },
  },
  // de/vat.py: ISO 7064 MOD 11-10.
  DE: { shape: "9 digits, not starting with 0", check: digits(9, true, (n) => mod11x10(n) === 1) },
  // dk/cvr.py
  DK: {
    shape: "8 digits, not starting with 0",
    check: digits(8, true, (n) => weighted(n, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0),
  },
  // ee/kmkr.py
  EE: {
    shape: "9 digits",
    check: digits(9, false, (n) => weighted(n, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0),
  },
  // fi/alv.py
  FI: {
    shape: "8 digits",
    check: digits(8, false, (n) => weighted(n, [7, 9, 10, 5, 8, 4, 2, 1]) % 11 === 0),
  },
  // fr/tva.py: a 2-character key then the SIREN (Luhn), except Monaco's 000 numbers, which are no SIREN.
  FR: {
    shape: "a key of 2 digits or letters other than I and O, then 9 digits",
    check: (n) => {
      const keyOk = [...n.slice(0, 2)].every((c) => FR_ALPHABET.includes(c));
      if (!keyOk || !isDigits(n.slice(2)) || n.length !== 11) return "format";
      if (n.slice(2, 5) !== "000" && luhn(n.slice(2)) !== 0) return "check_digits";
      return checked(frCheck(n));
    },
  },
  // gr/vat.py: binary-weighted sum; old numbers had 8 digits.
  GR: {
    shape: "9 digits, or an old 8-digit number",
    compact: (n) => (n.length === 8 ? `0${n}` : n),
    check: digits(9, false, (n) => {
      let sum = 0;
      for (const ch of n.slice(0, 8)) sum = sum * 2 + Number(ch);
      return String(((sum * 2) % 11) % 10) === n[8];
    }),
  },
  // hr/oib.py: ISO 7064 MOD 11-10.
  HR: { shape: "11 digits", check: digits(11, false, (n) => mod11x10(n) === 1) },
  // hu/anum.py
  HU: { shape: "8 digits", check: digits(8, false, (n) => weighted(n, [9, 7, 3, 1, 9, 7, 3, 1]) % 10 === 0) },
  // it/iva.py: a non-zero company part, a province office code in digits 8–10, Luhn.
  IT: {
    shape: "11 digits with a province office code, 001 to 100, 120, 121, 888 or 999, as digits 8 to 10",
    check: (n) => {
      if (!isDigits(n) || Number(n.slice(0, 7)) === 0 || n.length !== 11) return "format";
      const office = n.slice(7, 10);
      if (!((office >= "001" && office <= "100") || ["120", "121", "888", "999"].includes(office))) {
        return "format";
      }
      return checked(luhn(n) === 0);
    },
  },
  // lu/tva.py: the last two digits are the first six modulo 89.
  LU: {
    shape: "8 digits",
    check: digits(8, false, (n) => String(Number(n.slice(0, 6)) % 89).padStart(2, "0") === n.slice(6)),
  },
  // mt/vat.py
  MT: {
    shape: "8 digits, not starting with 0",
    check: digits(8, true, (n) => weighted(n, [3, 4, 6, 7, 8, 9, 10, 1]) % 37 === 0),
  },
  // pl/nip.py
  PL: {
    shape: "10 digits",
    check: digits(10, false, (n) => mod(weighted(n, [6, 5, 7, 2, 3, 4, 5, 6, 7, -1]), 11) === 0),
  },
  // pt/nif.py
  PT: {
    shape: "9 digits, not starting with 0",
    check: digits(9, true, (n) => String(mod(11 - weighted(n, [9, 8, 7, 6, 5, 4, 3, 2]), 11) % 10) === n[8]),
  },
  // se/vat.py: the 10-digit organisation number (Luhn) followed by 01.
  SE: {
    shape: "12 digits ending in 01",
    check: (n) => {
      if (!isDigits(n) || n.slice(-2) !== "01" || n.length !== 12) return "format";
      return checked(luhn(n.slice(0, 10)) === 0);
    },
  },
  // si/ddv.py: 11 − weighted sum mod 11, where 10 reads as 0 and 11 matches no digit.
  SI: {
    shape: "8 digits, not starting with 0",
    check: digits(8, true, (n) => {
      const check = 11 - (weighted(n, [8, 7, 6, 5, 4, 3, 2]) % 11);
      return (check === 10 ? "0" : String(check)) === n[7];
    }),
  },
};
