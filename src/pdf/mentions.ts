import type { CorrectionReason, InvoiceType } from "../constants";
import type { Invoice } from "../invoices/schemas";
import { percent } from "./format";

/**
 * The wording the invoice prints (RD 1619/2012 art. 6 and 15): titles, tax labels, the legal
 * text of exempt, reverse-charge and not-subject operations, and the meaning of a corrective's
 * reason. Legal references come from the tax catalog on the invoice, never from here.
 */

export const TITLES: Record<InvoiceType, { es: string; en: string }> = {
  ordinary: { es: "Factura", en: "Invoice" },
  simplified: { es: "Factura simplificada", en: "Simplified invoice" },
  corrective: { es: "Factura rectificativa", en: "Corrective invoice" },
};

/** VERI*FACTU's reading of the reasons (Orden HAC/1177/2024, list L3; LIVA art. 80). */
export const CORRECTION_REASON_TEXT: Record<CorrectionReason, string> = {
  R1: "Error fundado en derecho y art. 80 Uno, Dos y Seis LIVA",
  R2: "Art. 80.Tres LIVA (concurso)",
  R3: "Art. 80.Cuatro LIVA (créditos incobrables)",
  R4: "Resto de causas",
  R5: "Rectificativa de factura simplificada",
};

type AppliedTax = Invoice["lines"][number]["taxes"][number];
type BreakdownRow = Invoice["tax_breakdown"][number];

const SHORT_NAMES: Record<string, string> = {
  iva: "IVA",
  irpf: "IRPF",
  recargo_equivalencia: "Recargo equiv.",
};
const LONG_NAMES: Record<string, string> = {
  iva: "IVA",
  irpf: "IRPF",
  recargo_equivalencia: "Recargo de equivalencia",
};

/** What a tax's rate cell says when the tax is not charged. */
const UNTAXED: Record<Exclude<AppliedTax["treatment"], "taxable">, string> = {
  exempt: "exento",
  reverse_charge: "inversión del sujeto pasivo",
  not_subject: "no sujeto",
};

function label(tax: AppliedTax, names: Record<string, string>): string {
  return tax.tax === null ? tax.name : (names[tax.tax] ?? tax.name);
}

/** A line's tax, short: "IVA 21 %", "IRPF 15 % (ret.)", "IVA exento". */
export function lineTax(tax: AppliedTax): string {
  const name = label(tax, SHORT_NAMES);
  if (tax.treatment !== "taxable" || tax.rate === null) return `${name} ${UNTAXED[untaxed(tax)]}`;
  return `${name} ${percent(tax.rate)}${tax.effect === "withheld" ? " (ret.)" : ""}`;
}

/** A breakdown row's name: "IVA", "IRPF (retención)", "IVA exento". */
export function breakdownName(row: BreakdownRow): string {
  const name = label(row, LONG_NAMES);
  if (row.treatment !== "taxable") return `${name} ${UNTAXED[untaxed(row)]}`;
  return row.effect === "withheld" ? `${name} (retención)` : name;
}

function untaxed(tax: AppliedTax): Exclude<AppliedTax["treatment"], "taxable"> {
  return tax.treatment === "taxable" ? "exempt" : tax.treatment;
}

const WORDING: Record<Exclude<AppliedTax["treatment"], "taxable">, string> = {
  exempt: "Operación exenta",
  reverse_charge: "Inversión del sujeto pasivo",
  not_subject: "Operación no sujeta",
};

/**
 * The legal mention of each untaxed rule on the invoice, once per rule, in breakdown order:
 * "Inversión del sujeto pasivo (IVA): Ley 37/1992, art. 84.Uno.2º.". A rule without a reference in
 * the catalog (a custom tax never is untaxed) falls back to its description.
 */
export function legalMentions(breakdown: readonly BreakdownRow[]): string[] {
  const seen = new Set<string>();
  const mentions: string[] = [];
  for (const row of breakdown) {
    if (row.treatment === "taxable") continue;
    const key = `${row.tax}/${row.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const tax = label(row, LONG_NAMES);
    const ref = row.legal_reference ?? row.description;
    mentions.push(`${WORDING[row.treatment]} (${tax}): ${ref}.`);
  }
  return mentions;
}
