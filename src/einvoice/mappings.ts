/**
 * Code tables of the structured e-invoices: each mapping is one table, here, and each row has
 * a test (test/unit/einvoice-mappings.test.ts). UBL/EN 16931 first; the Facturae tables are in
 * the section at the end.
 */

/** UNCL5305 duty/tax/fee category codes that EN 16931 allows (BR-CL-17/18). */
export type VatCategory = "S" | "Z" | "E" | "AE" | "K" | "G" | "O" | "L" | "M";

export interface VatCategoryRow {
  category: VatCategory;
  /** CEF VATEX code (BT-121, BR-CL-22), where EN 16931 asks for an exemption reason. */
  exemption_code: string | null;
  /** BT-120. */
  exemption_text: string | null;
}

/**
 * A tax row (a line's tax or a `tax_breakdown` row) → its UNCL5305 category and exemption reason.
 * Keys: an `es` catalog rule (`iva` rules; `igic`/`ipsi` for the Canary Islands and Ceuta and
 * Melilla taxes, which have no catalog rules yet), else the treatment (`taxable` at a rate above
 * zero, `taxable_zero` at 0 %, and the other treatments for custom taxes and rules not named).
 * Exemption reasons: required for E (BR-E-10), AE (BR-AE-10), K (BR-IC-10), G (BR-G-10) and O
 * (BR-O-10); forbidden for S (BR-S-10), Z (BR-Z-10), L (BR-AF-10) and M (BR-AG-10).
 */
export const VAT_CATEGORIES = {
  taxable: { category: "S", exemption_code: null, exemption_text: null },
  taxable_zero: { category: "Z", exemption_code: null, exemption_text: null },
  // Ley 37/1992 art. 20 transposes Directive 2006/112/EC art. 132 (activities in the public interest).
  exempt_art_20: {
    category: "E",
    exemption_code: "VATEX-EU-132",
    exemption_text: "Exempt: Ley 37/1992, art. 20",
  },
  // Exports of goods (art. 21 = Directive art. 146).
  exempt_art_21: { category: "G", exemption_code: "VATEX-EU-G", exemption_text: "Export outside the EU" },
  // Operations assimilated to exports (international transport, vessels, aircraft: Directive art. 148).
  exempt_art_22: {
    category: "E",
    exemption_code: "VATEX-EU-148",
    exemption_text: "Exempt: Ley 37/1992, art. 22",
  },
  // Customs and tax warehouse regimes: no single VATEX code, so the reason is text only (BR-E-10 allows it).
  exempt_arts_23_24: { category: "E", exemption_code: null, exemption_text: "Exempt: Ley 37/1992, arts. 23 y 24" },
  // Intra-Community supply of goods (art. 25 = Directive art. 138).
  exempt_art_25: { category: "K", exemption_code: "VATEX-EU-IC", exemption_text: "Intra-community supply" },
  exempt_other: { category: "E", exemption_code: null, exemption_text: "Exempt: Ley 37/1992" },
  exempt: { category: "E", exemption_code: null, exemption_text: "Exempt from VAT" },
  reverse_charge: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  reverse_charge_eu: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  not_subject_location: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject_art_7_14: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  igic: { category: "L", exemption_code: null, exemption_text: null },
  ipsi: { category: "M", exemption_code: null, exemption_text: null },
} as const satisfies Record<string, VatCategoryRow>;

export type VatCategoryKey = keyof typeof VAT_CATEGORIES;

/** The row for a tax as the invoice applied it (its catalog tax and rule, treatment and rate). */
export function vatCategoryOf(tax: {
  tax: string | null;
  rule: string | null;
  treatment: string;
  rate: string | null;
}): VatCategoryRow {
  const table: Record<string, VatCategoryRow> = VAT_CATEGORIES;
  if (tax.tax === "igic" || tax.tax === "ipsi") return table[tax.tax];
  if (tax.tax === "iva" && tax.rule !== null && tax.treatment !== "taxable" && tax.rule in table)
    return table[tax.rule];
  if (tax.treatment === "taxable") return Number.parseFloat(tax.rate ?? "0") === 0 ? table.taxable_zero : table.taxable;
  return table[tax.treatment] ?? table.exempt;
}

/**
 * A payment option → UNCL4461 payment means code (BT-81, BR-CL-16). A bank transfer in euros is
 * a SEPA credit transfer (`58`, with the IBAN as BT-84 and the BIC as BT-86); in another currency
 * SEPA does not apply and it is a plain credit transfer (`30`).
 */
export const PAYMENT_MEANS = {
  bank_transfer_eur: { code: "58", name: "SEPA credit transfer" },
  bank_transfer: { code: "30", name: "Credit transfer" },
} as const;

export function paymentMeansOf(type: "bank_transfer", currency: string): { code: string; name: string } {
  return currency === "EUR" ? PAYMENT_MEANS[`${type}_eur`] : PAYMENT_MEANS[type];
}

// Facturae
