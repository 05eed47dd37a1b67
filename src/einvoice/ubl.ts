import type { Invoice } from "../invoices/schemas";
import { vatPrefix } from "../lib/countries";
import { el, type XmlNode } from "../lib/xml";
import { easVatSchemeOf, paymentMeansOf } from "./mappings";
import { customerDir3, customerPeppolId, issuerPeppolId, unitCodeOf } from "./snapshot";
import { type CorrectedInvoice, EinvoiceMissingDataError } from "./types";
import { amountText, type Category, ublTaxes } from "./ubl-taxes";
import { UNIT_CODES } from "./unit-codes";

/**
 * The invoice as a UBL 2.1 document following Peppol BIS Billing 3.0 (EN 16931 with Peppol's
 * rules): an `Invoice`, or a `CreditNote` for a corrective invoice whose total is negative, with
 * every amount turned positive as a credit note states them. Built from the invoice's snapshots
 * only, with no clock and no randomness: the same invoice gives the same bytes.
 * Throws `EinvoiceMissingDataError` naming what Peppol needs and the invoice lacks.
 */

export const CUSTOMIZATION_ID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
export const PROFILE_ID = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

const NS = "urn:oasis:names:specification:ubl:schema:xsd";
const cbc = (name: string, value: string | null | undefined, attrs?: Record<string, string | null>) =>
  el(`cbc:${name}`, value, attrs);
const cac = (name: string, children: readonly XmlNode[]) => el(`cac:${name}`, children);

type Party = Invoice["issuer"] | NonNullable<Invoice["customer"]>;
type TaxId = Party["tax_id"];

/** A VAT number with its country prefix (BT-31/BT-48, BR-CO-09), or null for a local tax id. */
function vatNumber(taxId: TaxId): string | null {
  if (!taxId || taxId.type === "local") return null;
  const prefix = vatPrefix(taxId.country);
  return taxId.value.startsWith(prefix) ? taxId.value : `${prefix}${taxId.value}`;
}

/** BT-34 / BT-49: the `peppol_id`, else the VAT number under its country's EAS VAT scheme. */
function endpoint(peppolId: string | null, taxId: TaxId): { scheme: string; id: string } | null {
  if (peppolId) {
    const at = peppolId.indexOf(":");
    return { scheme: peppolId.slice(0, at), id: peppolId.slice(at + 1) };
  }
  const vat = vatNumber(taxId);
  const scheme = taxId && vat ? easVatSchemeOf(taxId.country) : null;
  return scheme && vat ? { scheme, id: vat } : null;
}

function address(party: Party): string {
  const a = party.address;
  const country = a?.country ?? party.tax_id?.country;
  return cac("PostalAddress", [
    cbc("StreetName", a?.line_1),
    cbc("AdditionalStreetName", a?.line_2),
    cbc("CityName", a?.city),
    cbc("PostalZone", a?.postal_code),
    cbc("CountrySubentity", a?.state),
    cac("Country", [cbc("IdentificationCode", country)]),
  ]);
}

/**
 * A party: the electronic address, the postal address, the VAT number (BT-31/BT-48) unless the
 * invoice is not subject to VAT (BR-O-02), a local tax id as the seller's tax registration
 * identifier (BT-32, `TAX` scheme) or the buyer's legal registration identifier (BT-47).
 */
function party(p: Party, point: { scheme: string; id: string }, seller: boolean, withVat: boolean) {
  const vat = withVat ? vatNumber(p.tax_id) : null;
  const local = p.tax_id?.type === "local" ? p.tax_id.value : null;
  const contact = "email" in p ? [cbc("Telephone", p.phone), cbc("ElectronicMail", p.email)] : [];
  return cac("Party", [
    cbc("EndpointID", point.id, { schemeID: point.scheme }),
    address(p),
    vat && cac("PartyTaxScheme", [cbc("CompanyID", vat), cac("TaxScheme", [cbc("ID", "VAT")])]),
    seller && local && cac("PartyTaxScheme", [cbc("CompanyID", local), cac("TaxScheme", [cbc("ID", "TAX")])]),
    // BR-CO-26: a seller without a VAT number shown is identified by its legal registration (BT-30).
    cac("PartyLegalEntity", [
      cbc("RegistrationName", p.name),
      cbc("CompanyID", seller && !vat ? (p.tax_id?.value ?? null) : local),
    ]),
    cac("Contact", contact),
  ]);
}

const taxCategory = (name: string, c: Category, reasons: boolean) =>
  cac(name, [
    cbc("ID", c.category),
    cbc("Percent", c.percent),
    reasons ? cbc("TaxExemptionReasonCode", c.exemption_code) : null,
    reasons ? cbc("TaxExemptionReason", c.exemption_text) : null,
    cac("TaxScheme", [cbc("ID", "VAT")]),
  ]);

const negate = (s: string) => (s.startsWith("-") ? s.slice(1) : s === "0" ? s : `-${s}`);

export function ublDocument(invoice: Invoice, corrected: CorrectedInvoice | null): string {
  const taxes = ublTaxes(invoice);
  const customer = invoice.customer;
  const seller = endpoint(issuerPeppolId(invoice), invoice.issuer.tax_id);
  const buyer = customer && endpoint(customerPeppolId(invoice), customer.tax_id);
  const missing = [...taxes.problems];
  const unknownUnits = [...new Set(invoice.lines.map(unitCodeOf))].filter((code) => !UNIT_CODES.has(code));
  if (unknownUnits.length > 0) {
    missing.push(`unit codes of UN/ECE Recommendation 20 (not ${unknownUnits.join(", ")}: BR-CL-23)`);
  }
  if (!seller)
    missing.unshift(
      "the issuer's electronic address: a Peppol ID, or a VAT number of a country with an EAS VAT scheme (PEPPOL-EN16931-R020)",
    );
  if (!customer)
    missing.unshift("a customer: Peppol needs a buyer with an electronic address (PEPPOL-EN16931-R010)");
  else if (!buyer)
    missing.unshift(
      "the customer's electronic address: a Peppol ID, or a VAT number of a country with an EAS VAT scheme (PEPPOL-EN16931-R010)",
    );
  if (missing.length > 0 || !seller || !customer || !buyer)
    throw new EinvoiceMissingDataError("UBL", missing);

  const credit = taxes.totals.taxInclusive < 0n;
  const sign = credit ? -1n : 1n;
  const root = credit ? "CreditNote" : "Invoice";
  const money = (minor: bigint) => amountText(sign * minor, taxes.exponent);
  const amount = (name: string, minor: bigint) => cbc(name, money(minor), { currencyID: invoice.currency });
  const notSubject = taxes.subtotals.some((s) => s.category === "O");
  const dir3 = customerDir3(invoice);
  const kSupply = taxes.subtotals.some((s) => s.category === "K");

  // Peppol allows one note (PEPPOL-EN16931-R002): the invoice's notes, the withholdings, DIR3.
  const note = [
    invoice.notes,
    ...taxes.withholdings.map(
      (w) =>
        `${w.name}${w.rate ? ` ${w.rate}` : ""} withheld: ${money(w.amount)} ${invoice.currency}, stated as the paid amount; amount due ${money(taxes.totals.payable)} ${invoice.currency}.`,
    ),
    dir3 &&
      `DIR3: oficina contable ${dir3.accounting_office}, órgano gestor ${dir3.managing_body}, unidad tramitadora ${dir3.processing_unit}${dir3.proposing_body ? `, órgano proponente ${dir3.proposing_body}` : ""}.`,
  ]
    .filter(Boolean)
    .join("\n");

  const qr = invoice.verifactu?.qr_url;
  const lines = invoice.lines.map((line, i) => {
    const { category, amount: lineAmount } = taxes.lines[i]!;
    const negativePrice = line.unit_price.startsWith("-");
    const quantity = credit !== negativePrice ? negate(line.quantity) : line.quantity;
    return cac(credit ? "CreditNoteLine" : "InvoiceLine", [
      cbc("ID", String(i + 1)),
      cbc(credit ? "CreditedQuantity" : "InvoicedQuantity", quantity, { unitCode: unitCodeOf(line) }),
      amount("LineExtensionAmount", lineAmount),
      cac("Item", [cbc("Name", line.description), taxCategory("ClassifiedTaxCategory", category, false)]),
      cac("Price", [
        cbc("PriceAmount", negativePrice ? line.unit_price.slice(1) : line.unit_price, {
          currencyID: invoice.currency,
        }),
      ]),
    ]);
  });

  const payable = taxes.totals.payable * sign > 0n;
  const body = [
    cbc("CustomizationID", CUSTOMIZATION_ID),
    cbc("ProfileID", PROFILE_ID),
    cbc("ID", invoice.number),
    cbc("IssueDate", invoice.issue_date),
    !credit ? cbc("DueDate", invoice.payment_terms.due_date) : null,
    // 380: a commercial invoice; Peppol reserves 384 (corrected invoice) for German parties (PEPPOL-EN16931-P0112).
    cbc(credit ? "CreditNoteTypeCode" : "InvoiceTypeCode", credit ? "381" : "380"),
    cbc("Note", note || null),
    cbc("DocumentCurrencyCode", invoice.currency),
    // PEPPOL-EN16931-R003 wants a buyer reference: a public body's unidad tramitadora (it routes
    // the invoice), otherwise the invoice number, as no purchase order is known.
    cbc("BuyerReference", dir3?.processing_unit ?? invoice.number),
    corrected &&
      cac("BillingReference", [
        cac("InvoiceDocumentReference", [
          cbc("ID", corrected.number),
          cbc("IssueDate", corrected.issue_date),
        ]),
      ]),
    // VERI*FACTU: the QR's URL (Orden HAC/1177/2024 art. 20.2) as a supporting document (BG-24)
    // whose external location (BT-124) is the URL: a structured invoice has no image to print.
    qr &&
      cac("AdditionalDocumentReference", [
        cbc("ID", "VERIFACTU"),
        cbc("DocumentDescription", "VERI*FACTU: AEAT verification URL of the invoice's QR code"),
        cac("Attachment", [cac("ExternalReference", [cbc("URI", qr)])]),
      ]),
    cac("AccountingSupplierParty", [party(invoice.issuer, seller, true, !notSubject)]),
    cac("AccountingCustomerParty", [party(customer, buyer, false, !notSubject)]),
    // BR-IC-11/12: an intra-Community supply names its delivery date and country.
    (invoice.operation_date || kSupply) &&
      cac("Delivery", [
        cbc("ActualDeliveryDate", invoice.operation_date ?? invoice.issue_date),
        kSupply &&
          cac("DeliveryLocation", [
            cac("Address", [
              cac("Country", [
                cbc("IdentificationCode", customer.address?.country ?? customer.tax_id.country),
              ]),
            ]),
          ]),
      ]),
    ...invoice.payment_terms.options.map((o) => {
      const means = paymentMeansOf(o.type, invoice.currency);
      return cac("PaymentMeans", [
        cbc("PaymentMeansCode", means.code, { name: means.name }),
        cbc("PaymentID", o.reference),
        cac("PayeeFinancialAccount", [
          cbc("ID", o.bank_transfer.iban),
          cbc("Name", o.bank_transfer.beneficiary),
          cac("FinancialInstitutionBranch", [cbc("ID", o.bank_transfer.bic)]),
        ]),
      ]);
    }),
    // BR-CO-25: an amount due needs a due date or payment terms.
    payable &&
      (credit || !invoice.payment_terms.due_date) &&
      cac("PaymentTerms", [cbc("Note", "No due date stated on the invoice.")]),
    ...taxes.charges.map((c) =>
      cac("AllowanceCharge", [
        cbc("ChargeIndicator", "true"),
        cbc("AllowanceChargeReason", c.reason),
        cbc("MultiplierFactorNumeric", c.rate),
        amount("Amount", c.amount),
        amount("BaseAmount", c.base),
        taxCategory("TaxCategory", c, false),
      ]),
    ),
    cac("TaxTotal", [
      amount("TaxAmount", taxes.totals.tax),
      ...taxes.subtotals.map((s) =>
        cac("TaxSubtotal", [
          amount("TaxableAmount", s.base),
          amount("TaxAmount", s.amount),
          taxCategory("TaxCategory", s, true),
        ]),
      ),
    ]),
    cac("LegalMonetaryTotal", [
      amount("LineExtensionAmount", taxes.totals.lineExtension),
      amount("TaxExclusiveAmount", taxes.totals.taxExclusive),
      amount("TaxInclusiveAmount", taxes.totals.taxInclusive),
      taxes.totals.charges !== 0n && amount("ChargeTotalAmount", taxes.totals.charges),
      taxes.totals.prepaid !== 0n && amount("PrepaidAmount", taxes.totals.prepaid),
      amount("PayableAmount", taxes.totals.payable),
    ]),
    ...lines,
  ];
  const attrs = {
    xmlns: `${NS}:${root}-2`,
    "xmlns:cac": `${NS}:CommonAggregateComponents-2`,
    "xmlns:cbc": `${NS}:CommonBasicComponents-2`,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el(root, body, attrs)}\n`;
}
