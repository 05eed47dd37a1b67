import { describe, expect, it } from "vitest";
import {
  EAS_VAT_SCHEMES,
  easVatSchemeOf,
  PAYMENT_MEANS,
  paymentMeansOf,
  VAT_CATEGORIES,
  vatCategoryOf,
} from "../../src/einvoice/mappings";
import { EinvoiceMissingDataError } from "../../src/einvoice/types";
import { ublDocument } from "../../src/einvoice/ubl";
import { UNIT_CODES } from "../../src/einvoice/unit-codes";
import { el, escapeAttribute, flatten } from "../../src/lib/xml";
import { CATALOG } from "../../src/tax/catalog";
import cenRules from "../fixtures/einvoice/en16931-ubl/xslt/EN16931-UBL-validation.xslt?raw";
import { CASES } from "../fixtures/einvoice-invoices";

const iva = (rule: string, treatment: string, rate: string | null = null) => ({
  tax: "iva",
  rule,
  treatment,
  rate,
});

// The EAS codes Peppol BIS 3.0.21 accepts (PEPPOL-EN16931-CL008, the `eaid` list of
// test/fixtures/einvoice/peppol-bis-billing-3/xslt/PEPPOL-EN16931-UBL.xslt).
const PEPPOL_EAS =
  "0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198 0199 0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959".split(
    " ",
  );

describe("tax treatment → UNCL5305 category and exemption reason (one case per row)", () => {
  const cases: [keyof typeof VAT_CATEGORIES, Parameters<typeof vatCategoryOf>[0], string, string | null][] = [
    ["taxable", iva("general", "taxable", "21%"), "S", null],
    ["taxable_zero", iva("food_basic_temporary", "taxable", "0%"), "Z", null],
    ["exempt_art_20", iva("exempt_art_20", "exempt"), "E", "VATEX-EU-132"],
    ["exempt_art_21", iva("exempt_art_21", "exempt"), "G", "VATEX-EU-G"],
    ["exempt_art_22", iva("exempt_art_22", "exempt"), "E", "VATEX-EU-148"],
    ["exempt_arts_23_24", iva("exempt_arts_23_24", "exempt"), "E", null],
    ["exempt_art_25", iva("exempt_art_25", "exempt"), "K", "VATEX-EU-IC"],
    ["exempt_other", iva("exempt_other", "exempt"), "E", null],
    ["exempt", { tax: null, rule: null, treatment: "exempt", rate: null }, "E", null],
    ["reverse_charge", iva("reverse_charge", "reverse_charge"), "AE", "VATEX-EU-AE"],
    ["reverse_charge_eu", iva("reverse_charge_eu", "reverse_charge"), "AE", "VATEX-EU-AE"],
    ["not_subject_location", iva("not_subject_location", "not_subject"), "O", "VATEX-EU-O"],
    ["not_subject_art_7_14", iva("not_subject_art_7_14", "not_subject"), "O", "VATEX-EU-O"],
    ["not_subject", { tax: null, rule: null, treatment: "not_subject", rate: null }, "O", "VATEX-EU-O"],
    ["igic", { tax: "igic", rule: "general", treatment: "taxable", rate: "7%" }, "L", null],
    ["ipsi", { tax: "ipsi", rule: "general", treatment: "taxable", rate: "4%" }, "M", null],
  ];
  for (const [row, tax, category, code] of cases) {
    it(`${row}: ${category}${code ? ` with ${code}` : ""}`, () => {
      expect(vatCategoryOf(tax)).toBe(VAT_CATEGORIES[row]);
      expect(VAT_CATEGORIES[row].category).toBe(category);
      expect(VAT_CATEGORIES[row].exemption_code).toBe(code);
      // BR-S-10, BR-Z-10, BR-AF-10, BR-AG-10: no reason; BR-E/AE/IC/G/O-10: a reason.
      const reasoned = !["S", "Z", "L", "M"].includes(category);
      expect(VAT_CATEGORIES[row].exemption_text !== null).toBe(reasoned);
    });
  }
  it("recargo_equivalencia: a charge in E with its reason in text (BR-37, BR-E-10)", () => {
    expect(VAT_CATEGORIES.recargo_equivalencia).toMatchObject({ category: "E", exemption_code: null });
    expect(VAT_CATEGORIES.recargo_equivalencia.exemption_text).toContain("Recargo de equivalencia");
  });
  it("a custom tax (global) is S at a positive rate, Z at 0 %", () => {
    const custom = (rate: string) => ({ tax: null, rule: null, treatment: "taxable", rate });
    expect(vatCategoryOf(custom("10%")).category).toBe("S");
    expect(vatCategoryOf(custom("0%")).category).toBe("Z");
  });
  it("every non-taxable IVA rule of the catalog has its own row", () => {
    const iva = CATALOG.es.taxes.find((t) => t.tax === "iva")!;
    const rules = new Set(iva.rules.filter((r) => r.treatment !== "taxable").map((r) => r.rule));
    for (const rule of rules) expect(Object.keys(VAT_CATEGORIES)).toContain(rule);
  });
});

describe("payment instruction → UNCL4461 (one case per row)", () => {
  it("bank_transfer_eur: a bank transfer in euros is a SEPA credit transfer, 58", () => {
    expect(paymentMeansOf("bank_transfer", "EUR")).toBe(PAYMENT_MEANS.bank_transfer_eur);
    expect(PAYMENT_MEANS.bank_transfer_eur.code).toBe("58");
  });
  it("bank_transfer: in another currency, a credit transfer, 30", () => {
    expect(paymentMeansOf("bank_transfer", "USD")).toBe(PAYMENT_MEANS.bank_transfer);
    expect(PAYMENT_MEANS.bank_transfer.code).toBe("30");
  });
});

describe("country → EAS VAT scheme (one case per row)", () => {
  for (const [country, scheme] of Object.entries(EAS_VAT_SCHEMES)) {
    it(`${country}: ${scheme}, a code Peppol accepts`, () => {
      expect(easVatSchemeOf(country)).toBe(scheme);
      expect(PEPPOL_EAS).toContain(scheme);
    });
  }
  it("Spain is 9920 (the spec's example 9920:ESB12345674); a country without a VAT scheme has none", () => {
    expect(easVatSchemeOf("ES")).toBe("9920");
    expect(easVatSchemeOf("US")).toBeNull();
    expect(easVatSchemeOf("FI")).toBeNull();
  });
});

describe("the XML element builder (src/lib/xml.ts)", () => {
  it("escapes text and attributes, leaves out absent and empty elements", () => {
    expect(el("cbc:Amount", "1 < 2 & 3", { currencyID: 'E"U' })).toBe(
      '<cbc:Amount currencyID="E&quot;U">1 &lt; 2 &amp; 3</cbc:Amount>',
    );
    expect(el("cac:Party", [el("cbc:Name", undefined), null, false])).toBe("");
    expect(el("cbc:Note", null)).toBe("");
    expect(flatten(["<a/>", ["<b/>", null]])).toBe("<a/><b/>");
    expect(escapeAttribute("a\nb\tc")).toBe("a&#10;b&#9;c");
  });
});

describe("unit codes: UN/ECE Recommendation 20 as EN 16931 accepts it (BR-CL-23)", () => {
  it("the renderer's list is BR-CL-23's, code for code", () => {
    const rule = cenRules.slice(0, cenRules.indexOf("[BR-CL-23]"));
    const list = /contains\(' ([^']*) ', concat\(' ', normalize-space\(@unitCode\)/.exec(
      rule.slice(rule.lastIndexOf('test="')),
    )?.[1];
    expect([...UNIT_CODES].sort()).toEqual((list ?? "").split(" ").sort());
  });

  it("a line whose unit code is not on the list makes the UBL document missing data, naming the code and BR-CL-23", () => {
    const [sample] = Object.values(CASES);
    if (!sample) throw new Error("no e-invoice fixture");
    const invoice = {
      ...sample.invoice,
      lines: sample.invoice.lines.map((l) => ({ ...l, unit_code: "QQQ" })),
    };
    expect(UNIT_CODES.has("QQQ")).toBe(false);
    expect(() => ublDocument(invoice, sample.corrected)).toThrow(EinvoiceMissingDataError);
    expect(() => ublDocument(invoice, sample.corrected)).toThrow(/QQQ: BR-CL-23/);
  });
});
