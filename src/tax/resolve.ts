import { isIsoDate, nextDay } from "../lib/dates";
import { CATALOG, isTaxRegimeId } from "./catalog";
import type { IsoDate, RuleVersion, Tax } from "./types";

export type ResolveFailure =
  | "unknown_regime"
  | "unknown_tax"
  | "unknown_rule"
  | "invalid_date"
  | "not_in_force";

export type ResolveResult =
  | { ok: true; tax: Tax; version: RuleVersion }
  | { ok: false; reason: ResolveFailure; message: string };

/** True when `date` falls within the version's first and last day (both inclusive). */
export function isInForce(version: RuleVersion, date: IsoDate): boolean {
  return (
    version.effective_from <= date && (version.effective_until === null || date <= version.effective_until)
  );
}

/** "2023-01-01 → 2024-12-31", consecutive versions merged; "from 2012-09-01" when open-ended. */
function periodsInForce(versions: readonly RuleVersion[]): string {
  const spans: { from: IsoDate; until: IsoDate | null }[] = [];
  for (const v of versions) {
    const last = spans.at(-1);
    if (last && last.until !== null && nextDay(last.until) === v.effective_from)
      last.until = v.effective_until;
    else spans.push({ from: v.effective_from, until: v.effective_until });
  }
  return spans.map((s) => (s.until === null ? `from ${s.from}` : `${s.from} → ${s.until}`)).join(", ");
}

const quoted = (names: readonly string[]) => names.map((n) => `'${n}'`).join(", ");

/** Echoes caller input in a message, cut short so a huge value cannot bloat the error. */
const show = (value: string) => (value.length > 64 ? `${value.slice(0, 64)}…` : value);

/**
 * The version of `regime`/`tax`/`rule` in force on `date` (`YYYY-MM-DD`, the invoice date), or a
 * failure with a message fit for an API user. Checks in order: regime, tax, rule, date, period.
 *
 * @example
 * resolveRule("es", "iva", "general", "2012-09-01") // ok, version.rate === "21%"
 */
export function resolveRule(regime: string, tax: string, rule: string, date: string): ResolveResult {
  if (!isTaxRegimeId(regime)) {
    return {
      ok: false,
      reason: "unknown_regime",
      message: `Unknown tax regime '${show(regime)}'. Known regimes: ${quoted(Object.keys(CATALOG))}.`,
    };
  }
  const taxes = CATALOG[regime].taxes;
  const found = taxes.find((t) => t.tax === tax);
  if (!found) {
    const message =
      taxes.length === 0
        ? `Tax regime '${regime}' has no structured taxes (so no tax '${show(tax)}'); supply custom taxes at issuance.`
        : `Unknown tax '${show(tax)}' in regime '${regime}'. Known taxes: ${quoted(taxes.map((t) => t.tax))}.`;
    return { ok: false, reason: "unknown_tax", message };
  }
  const versions = found.rules.filter((v) => v.rule === rule);
  if (versions.length === 0) {
    const known = [...new Set(found.rules.map((v) => v.rule))];
    return {
      ok: false,
      reason: "unknown_rule",
      message: `Unknown rule '${show(rule)}' for tax '${tax}' in regime '${regime}'. Known rules: ${quoted(known)}.`,
    };
  }
  if (!isIsoDate(date)) {
    return {
      ok: false,
      reason: "invalid_date",
      message: `Invalid date '${show(date)}': expected a calendar date in the format YYYY-MM-DD.`,
    };
  }
  const version = versions.find((v) => isInForce(v, date));
  if (!version) {
    return {
      ok: false,
      reason: "not_in_force",
      message: `Rule '${rule}' of tax '${tax}' in regime '${regime}' is not in force on ${date} (in force ${periodsInForce(versions)}).`,
    };
  }
  return { ok: true, tax: found, version };
}
