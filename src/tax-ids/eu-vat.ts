import { vatPrefix } from "../lib/countries";
import type { VatRule } from "./eu-vat/digits";
import { MULTI_RULES } from "./eu-vat/multi";
import { SINGLE_RULES } from "./eu-vat/single";

export type EuVatCheck =
  | { ok: true; body: string }
  | { ok: false; reason: "format" | "check_digits"; message: string };

// Every member state but ES, whose VAT number is its NIF (src/tax-ids/es-nif.ts). XI (Northern
// Ireland) is not here: it is no ISO country code, so no Tax ID can carry it.
const RULES: Readonly<Record<string, VatRule>> = { ...SINGLE_RULES, ...MULTI_RULES };

/** The member states `checkEuVat` knows, as ISO codes (Greece is `GR`). */
export const EU_VAT_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(RULES));

/**
 * Checks the national part of an EU VAT number (`body`: after its prefix, uppercase, separators
 * removed) with the format and check-digit rules python-stdnum applies for that member state,
 * so a number with a typo is refused before any registry is asked. Success returns the body in
 * stdnum's compact form: an old 9-digit Belgian number gains its leading 0, an old 8-digit Greek
 * one too, and a Dutch number its leading zeros (`4495445B01` → `004495445B01`).
 * Failures say whether the shape or the check digits are wrong, with a message fragment for
 * "Invalid tax_id.value: …".
 *
 * @example
 * checkEuVat("BE", "403019261"); // { ok: true, body: "0403019261" }
 * checkEuVat("DE", "136695978");
 * // { ok: false, reason: "check_digits", message: "the check digits of this DE VAT number are wrong" }
 * checkEuVat("GR", "12345678X");
 * // { ok: false, reason: "format", message: "not a valid EL VAT number (9 digits, or an old 8-digit number)" }
 */
export function checkEuVat(country: string, body: string): EuVatCheck {
  const rule = RULES[country];
  if (!rule) return { ok: false, reason: "format", message: `no EU VAT number rule for ${country}` };
  const compact = rule.compact ? rule.compact(body) : body;
  // The rules assume A-Z and 0-9 only (an old Irish number's 2nd character is "not a digit").
  const verdict = /^[A-Z0-9]*$/.test(body) ? rule.check(compact) : "format";
  const prefix = vatPrefix(country);
  if (verdict === "valid") return { ok: true, body: compact };
  if (verdict === "format") {
    return { ok: false, reason: "format", message: `not a valid ${prefix} VAT number (${rule.shape})` };
  }
  const message = rule.checkName
    ? `the ${rule.checkName} of this ${prefix} VAT number is wrong`
    : `the check digits of this ${prefix} VAT number are wrong`;
  return { ok: false, reason: "check_digits", message };
}
