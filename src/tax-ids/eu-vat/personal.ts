// Personal identity numbers that some member states accept as a VAT number: the Czech and
// Slovak birth number (stdnum cz/rc.py), the Bulgarian EGN and PNF (bg/egn.py, bg/pnf.py),
// the Romanian CNP (ro/cnp.py) and the Latvian personal code (lv/pvn.py).
import { checked, isCalendarDate, isDigits, modOfDigits, type Verdict, weighted } from "./digits";

/**
 * Czech/Slovak rodné číslo: YYMMDD then 3 (until 1953) or 4 digits. Women add 50 to the
 * month and, since 2004, an overflowing serial adds 20; a 10-digit number is divisible by 11
 * up to the `% 10` fold of its last digit.
 */
export function birthNumber(n: string): Verdict {
  if (!isDigits(n)) return "format";
  if (n.length !== 9 && n.length !== 10) return "format";
  let year = 1900 + Number(n.slice(0, 2));
  const month = (Number(n.slice(2, 4)) % 50) % 20;
  if (n.length === 9) {
    if (year >= 1980) year -= 100;
    if (year > 1953) return "format";
  } else if (year < 1954) {
    year += 100;
  }
  if (!isCalendarDate(year, month, Number(n.slice(4, 6)))) return "format";
  if (n.length === 9) return "valid";
  return checked(String(modOfDigits(n.slice(0, 9), 11) % 10) === n[9]);
}

/** Bulgarian EGN: YYMMDD (month +40 after 1999, +20 before 1900), serial, weighted check digit. */
export function egn(n: string): Verdict {
  if (!isDigits(n) || n.length !== 10) return "format";
  let year = 1900 + Number(n.slice(0, 2));
  let month = Number(n.slice(2, 4));
  if (month > 40) {
    year += 100;
    month -= 40;
  } else if (month > 20) {
    year -= 100;
    month -= 20;
  }
  if (!isCalendarDate(year, month, Number(n.slice(4, 6)))) return "format";
  return checked(String((weighted(n, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10) === n[9]);
}

/** Bulgarian PNF (a foreigner's number): a weighted sum modulo 10. */
export function pnf(n: string): Verdict {
  if (!isDigits(n) || n.length !== 10) return "format";
  return checked(String(weighted(n, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10) === n[9]);
}

// First digit → century of birth; 7, 8 and 9 (foreigners) are read as 1900 so a date can be built.
const CNP_CENTURY: Record<string, number> = {
  "1": 1900,
  "2": 1900,
  "3": 1800,
  "4": 1800,
  "5": 2000,
  "6": 2000,
};
// County codes 01–48 (47 and 48 are former Bucharest sectors), 51, 52, 70 and 80–83.
const CNP_COUNTY = /^(0[1-9]|[1-3]\d|4[0-8]|5[12]|70|8[0-3])$/;

/** Romanian CNP: sex/century digit, YYMMDD, county, serial, weighted check digit (10 reads as 1). */
export function cnp(n: string): Verdict {
  if (!isDigits(n) || n[0] === "0" || n.length !== 13) return "format";
  const year = Number(n.slice(1, 3)) + (CNP_CENTURY[n[0]!] ?? 1900);
  if (!isCalendarDate(year, Number(n.slice(3, 5)), Number(n.slice(5, 7)))) return "format";
  if (!CNP_COUNTY.test(n.slice(7, 9))) return "format";
  const check = weighted(n, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
  return checked((check === 10 ? "1" : String(check)) === n[12]);
}

/** Latvian personal code check digit over the first 10 digits (stdnum notes it is unconfirmed). */
export function latvianPersonalDigit(n: string): string {
  return String(((1 + weighted(n, [10, 5, 8, 4, 2, 1, 6, 3, 7, 9])) % 11) % 10);
}
