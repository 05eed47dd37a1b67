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
  exempt_arts_23_24: {
    category: "E",
    exemption_code: null,
    exemption_text: "Exempt: Ley 37/1992, arts. 23 y 24",
  },
  // Intra-Community supply of goods (art. 25 = Directive art. 138).
  exempt_art_25: { category: "K", exemption_code: "VATEX-EU-IC", exemption_text: "Intra-community supply" },
  exempt_other: { category: "E", exemption_code: null, exemption_text: "Exempt: Ley 37/1992" },
  exempt: { category: "E", exemption_code: null, exemption_text: "Exempt from VAT" },
  reverse_charge: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  reverse_charge_eu: { category: "AE", exemption_code: "VATEX-EU-AE", exemption_text: "Reverse charge" },
  not_subject_location: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject_art_7_14: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  not_subject: { category: "O", exemption_code: "VATEX-EU-O", exemption_text: "Not subject to VAT" },
  // Not a VAT row: the surcharge a retailer under the recargo de equivalencia pays with the IVA
  // (Ley 37/1992 arts. 154–163). EN 16931 has one VAT category per line (BT-151) and a
  // breakdown per category and rate that must equal its lines (BR-S-08), so the recargo cannot be
  // a second rate on the line; it is a document-level charge (BG-21), which needs a VAT category
  // (BR-37). IVA is not levied on the recargo, so the charge is `E` with the reason in text
  // (BR-E-10); `S` would tax it (BR-S-08/09) and `O` cannot sit beside other categories (BR-O-11).
  recargo_equivalencia: {
    category: "E",
    exemption_code: null,
    exemption_text: "Recargo de equivalencia (Ley 37/1992, arts. 154-163): not itself subject to IVA",
  },
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
  const table: Partial<Record<string, VatCategoryRow>> = VAT_CATEGORIES;
  if (tax.tax === "igic" || tax.tax === "ipsi") return VAT_CATEGORIES[tax.tax];
  const byRule =
    tax.tax === "iva" && tax.rule !== null && tax.treatment !== "taxable" ? table[tax.rule] : undefined;
  if (byRule) return byRule;
  if (tax.treatment === "taxable")
    return Number.parseFloat(tax.rate ?? "0") === 0 ? VAT_CATEGORIES.taxable_zero : VAT_CATEGORIES.taxable;
  return table[tax.treatment] ?? VAT_CATEGORIES.exempt;
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

/**
 * A party's country → the Peppol EAS (Electronic Address Scheme) code of that country's VAT
 * number, the electronic address (BT-34 / BT-49 `EndpointID`) of a party without a `peppol_id`.
 * From the Peppol EAS code list (the codes 99xx "… VAT number", plus Italy's 0211 Partita IVA and
 * Denmark's 0198 SE number); every code is one that Peppol BIS 3.0.21 accepts
 * (PEPPOL-EN16931-CL008). Countries with no VAT scheme in the list (Finland, Sweden, Norway; the
 * United States, whose 9959 is an EIN, not a VAT number) have no row: their parties need a
 * `peppol_id`. The identifier is the VAT number with its country prefix (`9920:ESB12345674`).
 */
export const EAS_VAT_SCHEMES = {
  AD: "9922",
  AL: "9923",
  AT: "9914",
  BA: "9924",
  BE: "9925",
  BG: "9926",
  CH: "9927",
  CY: "9928",
  CZ: "9929",
  DE: "9930",
  DK: "0198",
  EE: "9931",
  ES: "9920",
  FR: "9957",
  GB: "9932",
  GR: "9933",
  HR: "9934",
  HU: "9910",
  IE: "9935",
  IT: "0211",
  LI: "9936",
  LT: "9937",
  LU: "9938",
  LV: "9939",
  MC: "9940",
  ME: "9941",
  MK: "9942",
  MT: "9943",
  NL: "9944",
  PL: "9945",
  PT: "9946",
  RO: "9947",
  RS: "9948",
  SI: "9949",
  SK: "9950",
  SM: "9951",
  TR: "9952",
  VA: "9953",
} as const satisfies Record<string, string>;

export function easVatSchemeOf(country: string): string | null {
  return (EAS_VAT_SCHEMES as Record<string, string>)[country] ?? null;
}

// Facturae
