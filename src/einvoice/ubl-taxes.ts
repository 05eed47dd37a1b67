import type { Invoice } from "../invoices/schemas";
import { currencyExponent } from "../lib/currencies";
import { formatMinor, toMinor } from "../lib/money";
import { VAT_CATEGORIES, type VatCategoryRow, vatCategoryOf } from "./mappings";

/**
 * How an invoice's taxes read in EN 16931 terms, in signed minor units: each line's VAT
 * category, the VAT breakdown (BG-23), the document-level charges (BG-21) and the totals (BG-22).
 *
 * - The line's VAT is its `iva` tax (`es`) or its one `added` custom tax (`global`); a line with
 *   none is "not subject" (`O`).
 * - Recargo de equivalencia: a document-level charge per breakdown row, see
 *   `VAT_CATEGORIES.recargo_equivalencia` for why (BR-37, BR-S-08, BR-E-10, BR-O-11).
 * - Withholdings (IRPF, `withheld` custom taxes): EN 16931 has no withholding element (UBL's
 *   `WithholdingTaxTotal` is refused by UBL-CR-513) and an allowance would lower the VAT base
 *   (BR-S-08). The withheld amount is what the buyer pays the tax agency instead of the seller,
 *   so it is stated as paid amount (BT-113 `PrepaidAmount`), and the amount due (BT-115) is the
 *   invoice's `amount_payable`: BT-115 = BT-112 − BT-113 (BR-CO-16). The note (BT-22) names it.
 */

export type Category = VatCategoryRow & { percent: string | null };

export interface Subtotal extends Category {
  base: bigint;
  amount: bigint;
}

export interface Charge extends Category {
  reason: string;
  /** The charge's rate on its base (BT-101/BT-100), e.g. "5.2". */
  rate: string;
  base: bigint;
  amount: bigint;
}

export interface Withholding {
  name: string;
  rate: string | null;
  amount: bigint;
}

export interface UblTaxes {
  exponent: number;
  lines: { category: Category; amount: bigint }[];
  subtotals: Subtotal[];
  charges: Charge[];
  withholdings: Withholding[];
  totals: {
    lineExtension: bigint;
    charges: bigint;
    taxExclusive: bigint;
    tax: bigint;
    taxInclusive: bigint;
    prepaid: bigint;
    payable: bigint;
  };
  /** What EN 16931 cannot state about this invoice, for `EinvoiceMissingDataError`. */
  problems: string[];
}

type Tax = Invoice["lines"][number]["taxes"][number];

const isVat = (t: Tax) => t.effect === "added" && t.tax !== "recargo_equivalencia";
const percentOf = (rate: string | null) => (rate === null ? "0" : rate.replace(/%$/, ""));

/** A tax's VAT category with its rate; `O` has no rate (BR-O-05). */
function categoryOf(t: Tax | undefined): Category {
  const row = t ? vatCategoryOf(t) : VAT_CATEGORIES.not_subject;
  return { ...row, percent: row.category === "O" ? null : percentOf(t?.rate ?? null) };
}

const keyOf = (c: Category) => `${c.category}/${c.percent}`;

export function ublTaxes(invoice: Invoice): UblTaxes {
  const exponent = currencyExponent(invoice.currency) ?? 2;
  const minor = (s: string | null) => (s === null ? 0n : (toMinor(s, exponent) ?? 0n));
  const problems: string[] = [];

  const lines = invoice.lines.map((line, i) => {
    const vat = line.taxes.filter(isVat);
    if (vat.length > 1)
      problems.push(
        `line ${i} has ${vat.length} added taxes, and EN 16931 gives a line one VAT category (BT-151)`,
      );
    return { category: categoryOf(vat[0]), amount: minor(line.amount) };
  });

  const subtotals = new Map<string, Subtotal>();
  const add = (c: Category, base: bigint, amount: bigint) => {
    const s = subtotals.get(keyOf(c));
    if (!s) return subtotals.set(keyOf(c), { ...c, base, amount });
    s.base += base;
    s.amount += amount;
    // One breakdown per category and rate: rows of different exemption reasons share it.
    if (s.exemption_code !== c.exemption_code) s.exemption_code = null;
    if (c.exemption_text && !s.exemption_text?.includes(c.exemption_text))
      s.exemption_text = s.exemption_text ? `${s.exemption_text}; ${c.exemption_text}` : c.exemption_text;
  };
  for (const l of lines) add(l.category, l.amount, 0n);

  const charges: Charge[] = [];
  const withholdings: Withholding[] = [];
  for (const row of invoice.tax_breakdown) {
    if (row.effect === "withheld") {
      withholdings.push({ name: row.name, rate: row.rate, amount: minor(row.amount) });
    } else if (row.tax === "recargo_equivalencia") {
      const c = { ...VAT_CATEGORIES.recargo_equivalencia, percent: "0" };
      const charge = { ...c, reason: `${row.name} ${row.rate ?? ""}`.trim(), rate: percentOf(row.rate) };
      charges.push({ ...charge, base: minor(row.base), amount: minor(row.amount) });
      add(c, minor(row.amount), 0n);
    } else {
      const c = categoryOf(row);
      const s = subtotals.get(keyOf(c));
      if (s) s.amount += minor(row.amount);
    }
  }

  const all = [...subtotals.values()];
  if (all.length > 1 && all.some((s) => s.category === "O"))
    problems.push(
      "it mixes operations not subject to VAT (category O) with others, which EN 16931 does not allow in one invoice (BR-O-11)",
    );

  const lineExtension = lines.reduce((sum, l) => sum + l.amount, 0n);
  const chargeTotal = charges.reduce((sum, c) => sum + c.amount, 0n);
  const tax = all.reduce((sum, s) => sum + s.amount, 0n);
  const prepaid = withholdings.reduce((sum, w) => sum + w.amount, 0n);
  const taxExclusive = lineExtension + chargeTotal;
  const taxInclusive = taxExclusive + tax;
  return {
    exponent,
    lines,
    subtotals: all,
    charges,
    withholdings,
    totals: {
      lineExtension,
      charges: chargeTotal,
      taxExclusive,
      tax,
      taxInclusive,
      prepaid,
      payable: taxInclusive - prepaid,
    },
    problems,
  };
}

/** A minor-unit amount as UBL writes it. */
export const amountText = (minor: bigint, exponent: number) => formatMinor(minor, exponent);
