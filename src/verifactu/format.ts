import { formatMinor, parseDecimal, parsePercent } from "../lib/money";

/**
 * How the record writes values (SuministroInformacion.xsd types `fecha`, `ImporteSgn12.2Type`,
 * `Tipo2.2Type`, `dateTime`). Values the schema cannot hold throw a `RangeError`: they are
 * programming or catalog errors, not client input (the invoice was already validated).
 */

/**
 * An invoice the record cannot represent although the API accepted it, with the request
 * field to blame: issuance answers 400 with that `param` (never a 500).
 */
export class UnregistrableInvoice extends RangeError {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** `2026-11-23` → `23-11-2026` (`fecha`). */
export function aeatDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new RangeError(`not an ISO date: ${isoDate}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}

/** The largest amount `ImporteSgn12.2Type` holds, in cents: 12 whole digits. */
const MAX_CENTS = 10n ** 14n - 1n;

/**
 * Cents as an `ImporteSgn12.2Type` amount (two decimals and a `.`). The API takes totals up to
 * ±10^13 EUR; a record holds 12 whole digits, so a larger amount is an invoice VERI*FACTU
 * cannot register (400 on `lines`), not a programming error.
 */
export function aeatCents(units: bigint): string {
  const amount = formatMinor(units, 2);
  if (units > MAX_CENTS || units < -MAX_CENTS) {
    throw new UnregistrableInvoice(
      `its amounts (base, quota or total) hold at most 12 whole digits (999999999999.99), and this one is ${amount}`,
      "lines",
    );
  }
  return amount;
}

/** An API amount string in EUR (`"1210.00"`) as an `ImporteSgn12.2Type` amount. */
export function aeatAmount(value: string): string {
  const d = parseDecimal(value);
  if (d?.scale !== 2) throw new RangeError(`not an amount with two decimals: ${value}`);
  return aeatCents(d.units);
}

/** `"21%"` → `"21.00"`, `"5.2%"` → `"5.20"` (`Tipo2.2Type`: at most two decimals). */
export function aeatRate(rate: string): string {
  const d = parsePercent(rate);
  if (!d || d.units < 0n) throw new RangeError(`not a percentage: ${rate}`);
  // The schema holds two decimals: 0.625 % (natural gas recargo, 2022–2023) cannot be written.
  if (d.scale > 2) throw new RangeError(`rate with more than two decimals: ${rate}`);
  const [whole, fraction = ""] = rate.slice(0, -1).split(".");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** The first `max` characters (code points, as XSD lengths count them) of a trimmed text. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join("") : chars.slice(0, max).join("").trimEnd();
}

const madrid = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Madrid",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/**
 * `FechaHoraHusoGenRegistro`: the instant in Spanish peninsular time with its UTC offset, to the
 * second (`2024-01-01T19:20:30+01:00`), as AEAT's examples write it.
 */
export function aeatTimestamp(ms: number): string {
  const seconds = Math.floor(ms / 1000) * 1000;
  const p = Object.fromEntries(madrid.formatToParts(new Date(seconds)).map((x) => [x.type, x.value]));
  const local = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  const offsetMin = Math.round((Date.parse(`${local}Z`) - seconds) / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${sign}${hh}:${mm}`;
}
