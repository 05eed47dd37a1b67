import type * as z from "zod";
import type { AppliedTax } from "../db/schema";
import { ApiError } from "../http/errors";
import {
  canonicalDecimal,
  customRate,
  type Decimal,
  formatMinor,
  MAX_MINOR,
  multiplyToMinor,
  parseDecimal,
  parsePercent,
  percentOfMinor,
  quantity,
  unitPrice,
  withinBound,
} from "../lib/money";
import { CATALOG } from "../tax/catalog";
import { resolveRule } from "../tax/resolve";
import type { IsoDate, TaxEffect, TaxRegimeId } from "../tax/types";

/**
 * Invoice arithmetic (spec "Arithmetic"): line amounts, resolved taxes, the tax breakdown and
 * the totals, in integer minor units. Pure: no database, no HTTP; formatting is the serializer's.
 */

export type EsTaxInput = { tax: string; rule: string };
export type CustomTaxInput = { name: string; rate: string; effect: TaxEffect };
export type LineInput = {
  description: string;
  quantity: string;
  unit_price: string;
  taxes: (EsTaxInput | CustomTaxInput)[];
};

export interface ComputeInput {
  regime: TaxRegimeId;
  /** Digits of the currency's minor unit (`currencyExponent`). */
  exponent: number;
  lines: readonly LineInput[];
  /** `added` taxes (iva, recargo_equivalencia) resolve on `supply`, `withheld` ones (irpf) on `withholding`. */
  taxDates: { supply: IsoDate; withholding: IsoDate };
}

/** A tax as applied to a line; the row type invoices store, so the two cannot drift. */
export type LineTax = AppliedTax;

export interface ComputedLine {
  description: string;
  /** Canonical decimals, as they read back ("3.000" → "3"). */
  quantity: string;
  unit_price: string;
  amount: bigint;
  taxes: LineTax[];
}

export interface BreakdownRow extends LineTax {
  /** The rule version's description; a custom tax's name. */
  description: string;
  legal_reference: string | null;
  base: bigint;
  /** null for `exempt`, `reverse_charge` and `not_subject` rows. */
  amount: bigint | null;
}

export interface ComputedInvoice {
  lines: ComputedLine[];
  tax_breakdown: BreakdownRow[];
  subtotal: bigint;
  total_tax_added: bigint;
  total_tax_withheld: bigint;
  total: bigint;
  amount_payable: bigint;
}

/** A line tax with what its breakdown row needs besides. */
type Applied = { line: LineTax; description: string; legal_reference: string | null };

const MAX_CUSTOM_TAXES = 10;

const isCatalogRef = (t: EsTaxInput | CustomTaxInput): t is EsTaxInput => "tax" in t || "rule" in t;

const invalid = (param: string, message: string) => new ApiError("parameter_invalid", message, { param });

/** A tax named twice on line `i`, `es` or custom alike. */
const repeated = (param: string, label: string, i: number) =>
  invalid(param, `Tax ${label} appears more than once on line ${i}: at most one entry per tax.`);

/** Re-checks a field with its request schema, so values that skipped validation fail the same way. */
function checked(
  schema: z.ZodType<string>,
  parse: (s: string) => Decimal | null,
  value: string,
  param: string,
): Decimal {
  const result = schema.safeParse(value);
  const parsed = result.success ? parse(value) : null;
  if (!parsed) throw invalid(param, `Invalid ${param}: ${result.error?.issues[0]?.message ?? "is invalid"}.`);
  return parsed;
}

/** The catalog taxes of an `es` line, in the order given. */
function esTaxes(i: number, entries: LineInput["taxes"], dates: ComputeInput["taxDates"]): Applied[] {
  const applied: (Applied | undefined)[] = [];
  const indexOf = new Map<string, number>();
  const at = (j: number) => `lines.${i}.taxes.${j}`;
  const resolve = (j: number, ref: EsTaxInput): Applied => {
    const effect = CATALOG.es.taxes.find((t) => t.tax === ref.tax)?.effect;
    const r = resolveRule("es", ref.tax, ref.rule, effect === "withheld" ? dates.withholding : dates.supply);
    if (!r.ok && r.reason === "unknown_tax") throw invalid(`${at(j)}.tax`, r.message);
    if (!r.ok && (r.reason === "unknown_rule" || r.reason === "not_in_force")) {
      throw invalid(`${at(j)}.rule`, r.message);
    }
    // An invalid date (or regime) is the caller's bug, not the client's: a 500.
    if (!r.ok) throw new Error(`computeInvoice: ${r.message}`);
    const { tax, version: v } = r;
    return {
      line: {
        tax: tax.tax,
        rule: v.rule,
        name: tax.name,
        treatment: v.treatment,
        effect: tax.effect,
        rate: v.rate,
        authority_code: v.authority_code,
      },
      description: v.description,
      legal_reference: v.legal_reference,
    };
  };

  for (const [j, entry] of entries.entries()) {
    if (!isCatalogRef(entry)) {
      throw invalid(
        at(j),
        `Tax regime 'es' takes catalog taxes such as {"tax": "iva", "rule": "general"}, not custom taxes.`,
      );
    }
    if (indexOf.has(entry.tax)) throw repeated(`${at(j)}.tax`, `'${entry.tax}'`, i);
    indexOf.set(entry.tax, j);
    // Recargo is checked against the line's iva first (below), which may come later in the list.
    applied[j] = entry.tax === "recargo_equivalencia" ? undefined : resolve(j, entry);
  }

  const ivaAt = indexOf.get("iva");
  if (ivaAt === undefined) {
    throw invalid(
      `lines.${i}.taxes`,
      `Line ${i} has no 'iva' entry: every 'es' line needs exactly one, e.g. {"tax": "iva", "rule": "general"}.`,
    );
  }
  const reAt = indexOf.get("recargo_equivalencia");
  if (reAt !== undefined) {
    const iva = applied[ivaAt]!.line;
    const re = entries[reAt] as EsTaxInput;
    if (re.rule !== iva.rule) {
      throw invalid(
        `${at(reAt)}.rule`,
        `The recargo_equivalencia rule must be the same rule as the line's iva rule ('${iva.rule}').`,
      );
    }
    if (iva.treatment !== "taxable") {
      throw invalid(
        `${at(reAt)}.rule`,
        `recargo_equivalencia applies only with a taxable iva rule; the line's iva rule '${iva.rule}' is ${iva.treatment}.`,
      );
    }
    applied[reAt] = resolve(reAt, re);
  }
  return applied as Applied[];
}

/**
 * The custom taxes of a `global` line: always taxable, at most 10, none twice. A repeated
 * (name, rate, effect) would fall into the breakdown row of its first entry and count the
 * line's amount twice in that row's base, so it is refused like a repeated `es` tax.
 */
function customTaxes(i: number, entries: LineInput["taxes"], dates: ComputeInput["taxDates"]): Applied[] {
  if (entries.length > MAX_CUSTOM_TAXES) {
    throw invalid(`lines.${i}.taxes`, `Line ${i} has ${entries.length} taxes: at most ${MAX_CUSTOM_TAXES}.`);
  }
  const seen = new Set<string>();
  return entries.map((entry, j) => {
    if (isCatalogRef(entry)) {
      // The resolver's own message: "Tax regime 'global' has no structured taxes (so no tax …)".
      const r = resolveRule("global", entry.tax, entry.rule, dates.supply);
      throw invalid(
        `lines.${i}.taxes.${j}`,
        r.ok ? "Tax regime 'global' takes custom taxes only." : r.message,
      );
    }
    const rate = checked(customRate, parsePercent, entry.rate, `lines.${i}.taxes.${j}.rate`);
    const line: LineTax = {
      tax: null,
      rule: null,
      name: entry.name,
      treatment: "taxable",
      effect: entry.effect,
      rate: `${canonicalDecimal(rate)}%`,
      authority_code: null,
    };
    const key = rowKey(line);
    if (seen.has(key)) throw repeated(`lines.${i}.taxes.${j}`, rowLabel(line), i);
    seen.add(key);
    return { line, description: entry.name, legal_reference: null };
  });
}

/** Rows are keyed by what makes them distinct: (tax, rule, rate), or (name, rate, effect) when custom. */
function rowKey(t: LineTax): string {
  return JSON.stringify(t.tax === null ? [null, t.name, t.rate, t.effect] : [t.tax, t.rule, t.rate]);
}

/** "iva/general", or "'GST' 10% added" for a custom tax. */
const rowLabel = (r: LineTax) =>
  r.tax === null ? `'${r.name}' ${r.rate} ${r.effect}` : `${r.tax}/${r.rule}`;

/**
 * Computes an invoice: each line's amount and taxes, the tax breakdown and the totals, all in
 * minor units of the currency. Throws `ApiError` 400 with the offending field's `param`.
 *
 * @example
 * computeInvoice({
 *   regime: "es", exponent: 2, taxDates: { supply: "2026-11-23", withholding: "2026-11-23" },
 *   lines: [{ description: "Consulting", quantity: "3", unit_price: "33.333",
 *     taxes: [{ tax: "iva", rule: "general" }, { tax: "irpf", rule: "professional" }] }],
 * }); // subtotal 10000n, total_tax_added 2100n, total_tax_withheld 1500n, total 12100n, amount_payable 10600n
 */
export function computeInvoice(input: ComputeInput): ComputedInvoice {
  const { regime, exponent, taxDates } = input;
  if (!Number.isInteger(exponent) || exponent < 0) throw new Error(`computeInvoice: exponent ${exponent}`);
  const limit = formatMinor(MAX_MINOR, exponent);
  const rows = new Map<string, BreakdownRow>();

  const lines = input.lines.map((line, i): ComputedLine => {
    const q = checked(quantity, parseDecimal, line.quantity, `lines.${i}.quantity`);
    const p = checked(unitPrice, parseDecimal, line.unit_price, `lines.${i}.unit_price`);
    const amount = multiplyToMinor(q, p, exponent);
    if (!withinBound(amount)) {
      throw invalid(
        `lines.${i}.unit_price`,
        `Line ${i}'s amount (quantity × unit_price = ${formatMinor(amount, exponent)}) must be within ±${limit}.`,
      );
    }
    const applied = regime === "es" ? esTaxes(i, line.taxes, taxDates) : customTaxes(i, line.taxes, taxDates);
    for (const a of applied) {
      const key = rowKey(a.line);
      const row = rows.get(key);
      if (row) row.base += amount;
      else {
        const { description, legal_reference } = a;
        rows.set(key, { ...a.line, description, legal_reference, base: amount, amount: null });
      }
    }
    return {
      description: line.description,
      quantity: canonicalDecimal(q),
      unit_price: canonicalDecimal(p),
      amount,
      taxes: applied.map((a) => a.line),
    };
  });

  const totals = { total_tax_added: 0n, total_tax_withheld: 0n };
  const tax_breakdown = [...rows.values()];
  for (const row of tax_breakdown) {
    if (row.treatment !== "taxable" || row.rate === null) continue;
    row.amount = percentOfMinor(row.base, parsePercent(row.rate)!);
    totals[row.effect === "added" ? "total_tax_added" : "total_tax_withheld"] += row.amount;
  }
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0n);
  const total = subtotal + totals.total_tax_added;
  const invoice = {
    lines,
    tax_breakdown,
    subtotal,
    ...totals,
    total,
    amount_payable: total - totals.total_tax_withheld,
  };

  // Row bases can exceed the subtotal when lines of opposite signs fall in different rows.
  const amounts: [string, bigint | null][] = [
    ...tax_breakdown.flatMap((r): [string, bigint | null][] => [
      [`the base of the ${rowLabel(r)} row`, r.base],
      [`the amount of the ${rowLabel(r)} row`, r.amount],
    ]),
    ["the subtotal", subtotal],
    ["the tax added", totals.total_tax_added],
    ["the tax withheld", totals.total_tax_withheld],
    ["the total", total],
    ["the amount payable", invoice.amount_payable],
  ];
  for (const [what, value] of amounts) {
    if (value !== null && !withinBound(value)) {
      throw invalid(
        "lines",
        `The invoice is too large: ${what} (${formatMinor(value, exponent)}) must be within ±${limit}.`,
      );
    }
  }
  return invoice;
}
