/** Calendar dates written `YYYY-MM-DD`, which sort as strings. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (2024-02-29 yes, 2023-02-29 no). */
export function isIsoDate(value: string): value is string {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** The day after an ISO date (for years 0001–9999). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d + 1);
  return t.toISOString().slice(0, 10);
}

// Formatting in a time zone costs more than the rest of an issuance's arithmetic. Dates
// change on minute boundaries in every zone in use, so one answer per zone and minute.
const formats = new Map<string, Intl.DateTimeFormat>();
const lastAnswer = new Map<string, { minute: number; date: string }>();

/** Today's date where `timeZone` is (an IANA zone), from the one clock. */
export function todayIn(timeZone: string, ms: number): string {
  const minute = Math.floor(ms / 60_000);
  const last = lastAnswer.get(timeZone);
  if (last?.minute === minute) return last.date;
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formats.set(timeZone, format);
  }
  const date = format.format(new Date(ms));
  lastAnswer.set(timeZone, { minute, date });
  return date;
}

/**
 * An account's today: Europe/Madrid for `es` accounts, UTC otherwise (issue dates, payment
 * dates and overdue are all judged on it).
 */
export function accountToday(es: boolean, ms: number): string {
  return todayIn(es ? "Europe/Madrid" : "UTC", ms);
}
