import type { Invoice } from "../invoices/schemas";

/**
 * Display formats in Spanish style, by string manipulation only: amounts arrive as exact decimal
 * strings ("1234.50") and never pass through a float.
 */

/** Joins a number to its unit so that a line never breaks between them. */
export const NBSP = "\u00a0";

/** `"-1234567.5"` → `"-1.234.567,5"`: `.` groups thousands, `,` separates decimals. */
export function decimal(value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return value;
  const [, sign, whole, fraction] = m;
  const grouped = whole!.replace(/\B(?=(\d{3})+$)/g, ".");
  return `${sign}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}

/**
 * An amount with its currency: the euro sign after the amount, other currencies by ISO code.
 *
 * @example
 * money("1234.50", "EUR"); // "1.234,50 €" (a no-break space before the sign)
 * money("-40.33", "USD");  // "-40,33 USD"
 */
export function money(value: string, currency: string): string {
  return `${decimal(value)}${NBSP}${currency === "EUR" ? "€" : currency}`;
}

/**
 * A decimal string with at least `min` decimals, padded with zeros: a unit price such as "49.9"
 * reads "49.90" like the amounts beside it, and "33.333" keeps its precision.
 */
export function withDecimals(value: string, min: number): string {
  const dot = value.indexOf(".");
  const decimals = dot === -1 ? 0 : value.length - dot - 1;
  if (decimals >= min) return value;
  return `${value}${dot === -1 ? "." : ""}${"0".repeat(min - decimals)}`;
}

/** The negation of a decimal string, for amounts shown as deductions ("15.00" → "-15.00", "0.00" stays). */
export function negated(value: string): string {
  if (/^-?0+(\.0+)?$/.test(value)) return value.replace(/^-/, "");
  return value.startsWith("-") ? value.slice(1) : `-${value}`;
}

/** `"5.2%"` → `"5,2 %"` (Spanish puts a space before the sign). */
export function percent(rate: string): string {
  return `${decimal(rate.replace(/%$/, ""))}${NBSP}%`;
}

/** `"2026-11-23"` → `"23/11/2026"`. */
export function date(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

/** An IBAN in groups of four, as printed on paper ("ES91 2100 0418 …"). */
export function iban(value: string): string {
  return value.replace(/(.{4})(?=.)/g, "$1 ");
}

type TaxId = { country: string; type: string; value: string };

/**
 * A Tax ID with what kind of number it is: `NIF` (Spanish), `NIF-IVA` (an EU VAT number, its
 * country prefix included), otherwise the country's own number with the country code.
 */
export function taxId(id: TaxId): string {
  if (id.type === "es_nif") return `NIF ${id.value}`;
  if (id.type === "eu_vat") return `NIF-IVA ${id.value}`;
  return `Id. fiscal ${id.country} ${id.value}`;
}

type Address = NonNullable<Invoice["issuer"]["address"]>;

const countryNames = (() => {
  try {
    return new Intl.DisplayNames(["es"], { type: "region", fallback: "code" });
  } catch {
    return null;
  }
})();

/** The country's Spanish name ("ES" → "España"), or its code when the runtime has no name for it. */
export function country(code: string): string {
  try {
    return countryNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** An address as printed lines: street lines, postal code, city and state, country. */
export function addressLines(a: Address): string[] {
  const city = `${a.postal_code} ${a.city}${a.state ? `, ${a.state}` : ""}`;
  const lines = [a.line_1, a.line_2, city, country(a.country)];
  return lines.filter((l): l is string => l !== null && l.trim() !== "");
}
