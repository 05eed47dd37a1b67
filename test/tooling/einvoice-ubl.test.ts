import { beforeAll, describe, expect, it } from "vitest";
import { EinvoiceMissingDataError } from "../../src/einvoice/types";
import { CUSTOMIZATION_ID, PROFILE_ID, ublDocument } from "../../src/einvoice/ubl";
import { CASES, REFUSED } from "../fixtures/einvoice-invoices";
import {
  type Document,
  missingPackages,
  problems,
  type Report,
  validateDocuments,
} from "./einvoice-validators";

/**
 * The UBL documents of every invoice case (test/fixtures/einvoice-invoices.ts) through the
 * official validators: UBL 2.1 XSD, EN 16931 1.3.16 and Peppol BIS Billing 3.0.21 rules, no
 * fatal finding. Then documents of ours broken in one place, which the validators must catch.
 */

const missing = missingPackages();
const required = Boolean(process.env.REQUIRE_SAXON);
if (missing.length > 0 && !required) {
  console.warn(`The UBL validation tests are skipped: apt-get install -y ${missing.join(" ")}.`);
}

const docs: Document[] = Object.entries(CASES).map(([name, c]) => ({
  name,
  xml: ublDocument(c.invoice, c.corrected),
}));
const docOf = (name: string) => docs.find((d) => d.name === name)!.xml;

/** Replaces exactly one occurrence, so that an edit cannot silently miss. */
function broken(name: string, from: string | RegExp, to: string): Document {
  const xml = docOf(name);
  const count = xml.split(from).length - 1;
  expect(count, `${from} occurs once in ${name}`).toBe(1);
  return { name: `broken: ${name}`, xml: xml.replace(from, to) };
}

describe("UBL documents (pure)", () => {
  it("the same invoice gives the same bytes", () => {
    for (const [name, c] of Object.entries(CASES))
      expect(ublDocument(c.invoice, c.corrected), name).toBe(docOf(name));
  });

  it("carry Peppol's identifiers, the buyer reference and the VERI*FACTU QR URL", () => {
    const xml = docOf("ordinary, IVA 21 % and 10 %, IRPF, recargo, SEPA transfer");
    expect(xml).toContain(`<cbc:CustomizationID>${CUSTOMIZATION_ID}</cbc:CustomizationID>`);
    expect(xml).toContain(`<cbc:ProfileID>${PROFILE_ID}</cbc:ProfileID>`);
    expect(xml).toContain("<cbc:BuyerReference>INV-0042</cbc:BuyerReference>");
    expect(xml).toContain('<cbc:EndpointID schemeID="9920">ESB12345674</cbc:EndpointID>');
    expect(xml).toMatch(
      /<cbc:URI>https:\/\/prewww2\.aeat\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=B12345674&amp;/,
    );
    expect(xml).toContain('<cbc:PaymentMeansCode name="SEPA credit transfer">58</cbc:PaymentMeansCode>');
  });

  it("IRPF is the paid amount, so the amount due is the invoice's amount payable (BR-CO-16)", () => {
    const c = CASES["ordinary, IVA 21 % and 10 %, IRPF, recargo, SEPA transfer"]!;
    const xml = docOf("ordinary, IVA 21 % and 10 %, IRPF, recargo, SEPA transfer");
    expect(xml).toContain(
      `<cbc:TaxInclusiveAmount currencyID="EUR">${c.invoice.total}</cbc:TaxInclusiveAmount>`,
    );
    expect(xml).toContain(
      `<cbc:PrepaidAmount currencyID="EUR">${c.invoice.total_tax_withheld}</cbc:PrepaidAmount>`,
    );
    expect(xml).toContain(
      `<cbc:PayableAmount currencyID="EUR">${c.invoice.amount_payable}</cbc:PayableAmount>`,
    );
    expect(xml).toMatch(
      /<cac:AllowanceCharge><cbc:ChargeIndicator>true<\/cbc:ChargeIndicator><cbc:AllowanceChargeReason>Recargo/,
    );
  });

  it("a negative corrective is a CreditNote with positive amounts and a BillingReference", () => {
    const c = CASES["corrective, negative (CreditNote), IRPF"]!;
    const xml = docOf("corrective, negative (CreditNote), IRPF");
    expect(xml).toMatch(
      /^<\?xml[^>]*>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
    );
    expect(xml).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
    expect(xml).toContain(
      `<cbc:PayableAmount currencyID="EUR">${c.invoice.amount_payable.slice(1)}</cbc:PayableAmount>`,
    );
    expect(xml).toContain(
      "<cac:InvoiceDocumentReference><cbc:ID>INV-0042</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate>",
    );
    const positive = docOf("corrective, positive (Invoice with BillingReference)");
    expect(positive).toContain("<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>");
    expect(positive).toContain("<cac:BillingReference>");
  });

  for (const [name, c] of Object.entries(REFUSED)) {
    it(`refuses: ${name}, naming ${c.names}`, () => {
      expect(() => ublDocument(c.invoice, c.corrected)).toThrow(EinvoiceMissingDataError);
      expect(() => ublDocument(c.invoice, c.corrected)).toThrow(c.names);
    });
  }
});

describe.skipIf(missing.length > 0 && !required)("UBL documents through the official validators", () => {
  const reports = new Map<string, Report>();
  const brokenDocs = [
    broken(
      "ordinary, IVA 21 % and 10 %, IRPF, recargo, SEPA transfer",
      /<cbc:PayableAmount currencyID="EUR">[^<]*</,
      '<cbc:PayableAmount currencyID="EUR">1.00<',
    ),
    broken(
      "EU reverse charge (AE)",
      /<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/,
      "<cac:AccountingCustomerParty><cac:Party>",
    ),
    broken(
      "export (G), customer with a Peppol ID",
      "<cbc:TaxExemptionReasonCode>VATEX-EU-G</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>Export outside the EU</cbc:TaxExemptionReason>",
      "",
    ),
  ];

  beforeAll(async () => {
    for (const r of await validateDocuments([...docs, ...brokenDocs])) reports.set(r.name, r);
  }, 180_000);

  for (const name of Object.keys(CASES)) {
    it(`${name}: XSD, EN 16931 and Peppol pass`, () => {
      const r = reports.get(name)!;
      expect(r.kind).toBe(name.includes("CreditNote") ? "ubl-credit-note" : "ubl-invoice");
      expect(problems(r), docOf(name)).toEqual([]);
    });
  }

  it("catch our documents broken in one place: BR-CO-16 (amount due), PEPPOL-EN16931-R010 (buyer address), BR-G-10 (export reason)", () => {
    const fatal = (i: number) => {
      const r = reports.get(brokenDocs[i]!.name)!;
      return [...(r.en16931?.fatal ?? []), ...(r.peppol?.fatal ?? [])].map((f) => f.id);
    };
    expect(fatal(0)).toContain("BR-CO-16");
    expect(fatal(1)).toContain("PEPPOL-EN16931-R010");
    expect(fatal(2)).toContain("BR-G-10");
  });
});
