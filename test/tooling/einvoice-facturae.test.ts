import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { facturaeDocument } from "../../src/einvoice/facturae";
import {
  FACTURAE_CORRECTION_REASONS,
  FACTURAE_CURRENCIES,
  FACTURAE_REASON_DESCRIPTIONS,
  FACTURAE_UNITS,
  facturaeCountryOf,
} from "../../src/einvoice/mappings";
import { EinvoiceMissingDataError } from "../../src/einvoice/types";
import { COUNTRY_CODES } from "../../src/lib/countries";
import { REFUSED, CASES as SHARED } from "../fixtures/einvoice-invoices";
import { esCase, FACTURAE_CASES, PUBLIC_BODY } from "../fixtures/facturae-invoices";
import { iva } from "../fixtures/verifactu-invoices";
import { problems, SCHEMAS, validateDocuments } from "./einvoice-validators";

/**
 * The Facturae 3.2.2 documents of every kind of invoice, validated against the official XSD
 * (test/fixtures/einvoice/facturae-3.2.2, offline through its XML catalog), with their totals
 * checked against the invoices' own.
 */

// The e-invoice cases both formats share (UBL refuses some that Facturae takes), then Facturae's own.
const ALL = {
  ...Object.fromEntries(Object.entries(SHARED).map(([name, c]) => [`shared: ${name}`, c])),
  ...Object.fromEntries(
    Object.entries(REFUSED)
      .filter(([, c]) => c.invoice.customer !== null)
      .map(([name, c]) => [`shared, refused by UBL: ${name}`, c]),
  ),
  ...FACTURAE_CASES,
};
const CASES = Object.entries(ALL).map(([name, c]) => ({
  name,
  ...c,
  xml: facturaeDocument(c.invoice, c.corrected),
}));

/** The text of every `<name>` element, in document order. */
const all = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);
const one = (xml: string, name: string) => {
  const found = all(xml, name);
  if (found.length !== 1) throw new Error(`${found.length} <${name}> elements`);
  return found[0]!;
};
/** The TotalAmount of every `<name>` (an AmountType). */
const amounts = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}><TotalAmount>([^<]*)</TotalAmount>`, "g"))].map((m) => m[1]!);
/** An element's markup (the first one). */
const block = (xml: string, name: string) => new RegExp(`<${name}>.*?</${name}>`).exec(xml)?.[0] ?? "";
/** Sums decimal strings exactly, in units of 10^-8. */
const sum = (values: string[]) => values.reduce((s, v) => s + cents(v), 0n);
const cents = (v: string) => {
  const [whole, fraction = ""] = v.split(".");
  const n = BigInt(`${whole!.replace("-", "")}${fraction.padEnd(8, "0")}`);
  return v.startsWith("-") ? -n : n;
};

describe("Facturae 3.2.2 documents", () => {
  it("every case validates against the official XSD", async () => {
    const reports = await validateDocuments(CASES.map(({ name, xml }) => ({ name, xml })));
    for (const report of reports) {
      expect(report.kind, report.name).toBe("facturae");
      expect(problems(report), report.name).toEqual([]);
    }
  });

  it("a broken document fails the XSD", async () => {
    const xml = CASES[0]!.xml;
    const [missingTotal, badModality] = await validateDocuments([
      { name: "no-total-gross", xml: xml.replace(/<TotalGrossAmount>[^<]*<\/TotalGrossAmount>/, "") },
      { name: "modality-x", xml: xml.replace("<Modality>I</Modality>", "<Modality>X</Modality>") },
    ]);
    expect(missingTotal!.xsd.ok).toBe(false);
    expect(missingTotal!.xsd.errors.join("\n")).toContain("Expected is ( TotalGrossAmount )");
    expect(badModality!.xsd.ok).toBe(false);
  });

  it.each(CASES)("is the same bytes twice: $name", ({ invoice, corrected, xml }) => {
    expect(facturaeDocument(structuredClone(invoice), corrected)).toBe(xml);
  });

  it.each(CASES)("carries the invoice's totals: $name", ({ invoice, xml }) => {
    const totals = block(xml, "InvoiceTotals");
    expect(one(totals, "TotalGrossAmount")).toBe(invoice.subtotal);
    expect(one(totals, "TotalGrossAmountBeforeTaxes")).toBe(invoice.subtotal);
    expect(one(totals, "TotalTaxOutputs")).toBe(invoice.total_tax_added);
    expect(one(totals, "TotalTaxesWithheld")).toBe(invoice.total_tax_withheld);
    expect(one(totals, "InvoiceTotal")).toBe(invoice.amount_payable);
    expect(one(totals, "TotalOutstandingAmount")).toBe(invoice.amount_payable);
    expect(one(totals, "TotalExecutableAmount")).toBe(invoice.amount_payable);
    // The file's batch totals match the invoice's (Modality I).
    const batch = block(xml, "Batch");
    expect(all(batch, "TotalAmount")).toEqual([
      invoice.amount_payable,
      invoice.amount_payable,
      invoice.amount_payable,
    ]);
    // Facturae's own arithmetic: lines → gross; taxes → outputs and withheld; the invoice total.
    const items = block(xml, "Items");
    expect(sum(all(items, "GrossAmount"))).toBe(cents(invoice.subtotal));
    const outputs = block(xml.replace(items, ""), "TaxesOutputs");
    const quotas = [...amounts(outputs, "TaxAmount"), ...amounts(outputs, "EquivalenceSurchargeAmount")];
    expect(sum(quotas)).toBe(cents(invoice.total_tax_added));
    const withheld = block(xml.replace(items, ""), "TaxesWithheld");
    expect(sum(amounts(withheld, "TaxAmount"))).toBe(cents(invoice.total_tax_withheld));
    expect(cents(invoice.subtotal) + cents(invoice.total_tax_added) - cents(invoice.total_tax_withheld)).toBe(
      cents(invoice.amount_payable),
    );
    expect(cents(invoice.subtotal) + cents(invoice.total_tax_added)).toBe(cents(invoice.total));
  });

  it("writes IRPF as TaxesWithheld 04 and recargo on its IVA line", () => {
    const xml = CASES.find((c) => c.name.startsWith("ordinary"))!.xml;
    const invoiceLevel = xml.replace(block(xml, "Items"), "");
    expect(block(invoiceLevel, "TaxesWithheld")).toContain(
      "<TaxTypeCode>04</TaxTypeCode><TaxRate>15.00</TaxRate>",
    );
    // IVA 21 %: split in the part with recargo (5.2 %) and the part without.
    expect(invoiceLevel).toContain(
      "<TaxTypeCode>01</TaxTypeCode><TaxRate>21.00</TaxRate><TaxableBase><TotalAmount>94.00</TotalAmount></TaxableBase><TaxAmount><TotalAmount>19.74</TotalAmount></TaxAmount><EquivalenceSurcharge>5.20</EquivalenceSurcharge><EquivalenceSurchargeAmount><TotalAmount>4.89</TotalAmount></EquivalenceSurchargeAmount>",
    );
    expect(all(xml, "UnitOfMeasure")).toEqual(["02", "06", "05", "01"]);
    expect(one(xml, "OperationDate")).toBe("2026-11-15");
    expect(block(xml, "PaymentDetails")).toContain(
      "<PaymentMeans>04</PaymentMeans><AccountToBeCredited><IBAN>ES9121000418450200051332</IBAN><BIC>CAIXESBBXXX</BIC></AccountToBeCredited><PaymentReconciliationReference>INV-0042</PaymentReconciliationReference>",
    );
    expect(one(xml, "InvoiceAdditionalInformation")).toBe("Gracias por su confianza.\nPago a 30 días.");
    expect(all(xml, "LegalReference")[0]).toMatch(
      /^QR tributario: https:\/\/prewww2\.aeat\.es\/.*numserie=INV-0042/,
    );
  });

  it("writes a corrective's Corrective block and class", () => {
    const xml = CASES.find((c) => c.name.startsWith("corrective R1"))!.xml;
    expect(one(xml, "InvoiceClass")).toBe("OR");
    expect(block(xml, "Corrective")).toBe(
      "<Corrective><InvoiceNumber>INV-0042</InvoiceNumber><ReasonCode>16</ReasonCode><ReasonDescription>Base imponible</ReasonDescription><TaxPeriod><StartDate>2026-11-20</StartDate><EndDate>2026-11-20</EndDate></TaxPeriod><CorrectionMethod>02</CorrectionMethod><CorrectionMethodDescription>Rectificación por diferencias</CorrectionMethodDescription><InvoiceIssueDate>2026-11-20</InvoiceIssueDate></Corrective>",
    );
    expect(all(CASES.find((c) => c.name.startsWith("corrective R2"))!.xml, "ReasonCode")).toEqual(["85"]);
  });

  it("writes exempt, not subject and reverse-charge lines at 0 % with their special event and literal", () => {
    const xml = CASES.find((c) => c.name.startsWith("exempt"))!.xml;
    expect(all(xml, "SpecialTaxableEventCode")).toEqual(["01", "02"]);
    expect(all(xml, "TaxRate").every((r) => r === "0.00")).toBe(true);
    expect(all(xml, "LegalReference")).toEqual([
      "Operación exenta (Ley 37/1992, art. 20)",
      "Inversión del sujeto pasivo (Ley 37/1992, art. 84.Uno.2º)",
      "Operación no sujeta (Ley 37/1992, arts. 68 a 70)",
      expect.stringMatching(/^QR tributario: /),
    ]);
    const eu = CASES.find((c) => c.name.startsWith("EU reverse charge"))!.xml;
    expect(all(eu, "SpecialTaxableEventCode")).toEqual(["02"]);
    expect(all(eu, "LegalReference")[0]).toMatch(
      /^Operación no sujeta por reglas de localización, inversión/,
    );
  });

  it("names the parties by residence, and a public body's DIR3 units as administrative centres", () => {
    const byName = (prefix: string) => CASES.find((c) => c.name.startsWith(prefix))!.xml;
    const residence = (xml: string) => all(xml, "ResidenceTypeCode");
    expect(residence(byName("EU reverse charge"))).toEqual(["R", "U"]);
    expect(residence(byName("export"))).toEqual(["R", "E"]);
    expect(all(byName("IRPF"), "PersonTypeCode")).toEqual(["J", "F"]);
    expect(block(byName("export"), "BuyerParty")).toContain(
      "<OverseasAddress><Address>1 Microsoft Way</Address><PostCodeAndTown>98052 Redmond</PostCodeAndTown><Province>WA</Province><CountryCode>USA</CountryCode></OverseasAddress>",
    );
    const xml = byName("public-sector");
    expect(all(xml, "CentreCode")).toEqual(Object.values(PUBLIC_BODY.einvoicing!.dir3!));
    expect(all(xml, "RoleTypeCode")).toEqual(["01", "02", "03", "04"]);
    expect(block(xml, "AdministrativeCentre")).toContain(
      "<Province>Madrid</Province><CountryCode>ESP</CountryCode>",
    );
    // No due date: the installment is due on the issue date.
    expect(one(xml, "InstallmentDueDate")).toBe("2026-11-23");
  });

  it("serves a global account's USD invoice with its custom taxes as 05 (other)", () => {
    const xml = CASES.find((c) => c.name.startsWith("global"))!.xml;
    expect(all(xml, "InvoiceCurrencyCode")).toEqual(["USD", "USD"]);
    expect(one(xml, "TaxCurrencyCode")).toBe("USD");
    expect(new Set(all(xml, "TaxTypeCode"))).toEqual(new Set(["05"]));
    expect(all(xml, "CountryCode")).toEqual(["USA", "AUS"]);
    expect(xml).not.toContain("<LegalLiterals>");
  });

  it("writes amounts with the currency's decimals, and the installment with two", () => {
    const jpy = CASES.find((c) => c.name.startsWith("global account in JPY"))!;
    expect(one(jpy.xml, "InvoiceTotal")).toBe(jpy.invoice.amount_payable);
    expect(jpy.invoice.amount_payable).toMatch(/^\d+$/);
    expect(one(jpy.xml, "InstallmentAmount")).toBe(`${jpy.invoice.amount_payable}.00`);
    const kwd = CASES.find((c) => c.name.startsWith("global account in KWD"))!;
    expect(one(kwd.xml, "InvoiceTotal")).toMatch(/^\d+\.\d{3}$/);
    expect(one(kwd.xml, "InstallmentAmount")).toMatch(/^\d+\.\d{2}$/);
  });

  it("refuses an invoice without a customer, naming what is missing", () => {
    const shared = REFUSED["simplified without a customer"]!;
    expect(() => facturaeDocument(shared.invoice, shared.corrected)).toThrow(shared.names);
    const { invoice } = esCase({ type: "simplified", number: "SIM-0001", customer: null, lines: [] });
    expect(() => facturaeDocument(invoice, null)).toThrow(EinvoiceMissingDataError);
    const missing = (() => {
      try {
        facturaeDocument({ ...invoice, issuer: { ...invoice.issuer, address: null } }, null);
      } catch (e) {
        return (e as EinvoiceMissingDataError).missing;
      }
    })();
    expect(missing).toEqual([
      "the issuer's address",
      "a customer (Facturae names the buyer, BuyerParty, on every invoice)",
    ]);
    const corrective = esCase({
      type: "corrective",
      corrects: { invoice: "inv_x", reason: "R4" },
      lines: [{ description: "x", quantity: "1", unit_price: "-1", taxes: [iva("general")] }],
    }).invoice;
    expect(() => facturaeDocument(corrective, null)).toThrow("the corrected invoice");
  });

  it("keeps a long number within InvoiceNumber's 20 characters", () => {
    const { invoice } = esCase({ number: "F2026MADRID-ACME-0042", lines: [] }, { series: "F2026MADRID" });
    expect(one(facturaeDocument(invoice, null), "InvoiceNumber")).toBe("ACME-0042");
  });
});

describe("Facturae code tables against the XSD", async () => {
  const xsd = await readFile(SCHEMAS.facturae, "utf8");
  const enumeration = (type: string) => {
    const body =
      new RegExp(`<xs:simpleType name="${type}">([\\s\\S]*?)</xs:simpleType>`).exec(xsd)?.[1] ?? "";
    return [...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]!);
  };

  it("pairs each reason code with its description as the XSD lists them", () => {
    // The XSD lists codes and descriptions in the same order (01–16, 80–85).
    const descriptions = enumeration("ReasonDescriptionType");
    const pairs = enumeration("ReasonCodeType").map((code, i) => [code, descriptions[i]]);
    expect(pairs).toHaveLength(22);
    expect(Object.entries(FACTURAE_REASON_DESCRIPTIONS).sort()).toEqual(pairs);
    for (const code of Object.values(FACTURAE_CORRECTION_REASONS)) {
      expect(enumeration("ReasonCodeType")).toContain(code);
    }
  });

  it("maps units, countries and currencies to values of the XSD's lists", () => {
    const units = new Set(enumeration("UnitOfMeasureType"));
    for (const code of Object.values(FACTURAE_UNITS)) expect(units).toContain(code);
    const countries = new Set(enumeration("CountryType"));
    for (const alpha2 of COUNTRY_CODES) {
      const alpha3 = facturaeCountryOf(alpha2);
      if (alpha2 === "AQ") expect(alpha3).toBeNull();
      else expect(countries, alpha2).toContain(alpha3);
    }
    const currencies = new Set(enumeration("CurrencyCodeType"));
    for (const c of FACTURAE_CURRENCIES) expect(currencies).toContain(c);
  });
});
