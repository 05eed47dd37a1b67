import type { Invoice } from "../invoices/schemas";
import { EU_MEMBER_STATES } from "../lib/countries";
import {
  type Decimal,
  formatMinor,
  parseDecimal,
  parsePercent,
  percentOfMinor,
  roundToScale,
} from "../lib/money";
import { el, type XmlNode } from "../lib/xml";
import {
  FACTURAE_CORRECTION_METHOD,
  FACTURAE_CURRENCIES,
  FACTURAE_DIR3_ROLES,
  FACTURAE_PAYMENT_MEANS,
  FACTURAE_TAX_TYPES,
  facturaeCountryOf,
  facturaeReasonOf,
  facturaeSpecialEventOf,
  facturaeTaxTypeOf,
  facturaeUnitOf,
  spanishProvinceOf,
} from "./mappings";
import { type CorrectedInvoice, EinvoiceMissingDataError } from "./types";

/**
 * Facturae 3.2.2 (Orden HAP/1650/2015; XSD `Facturaev3_2_2.xsd`), one invoice per file
 * (Modality I), issued by the seller (InvoiceIssuerType EM), unsigned: `ds:Signature` is
 * `minOccurs="0"` in the XSD, which notes that a XAdES signature is what makes the file a legally
 * valid invoice before third parties (FACe requires it); signing is the next step.
 *
 * Built from the invoice's snapshots only, elements in the XSD's order with no whitespace between
 * them, so one invoice always gives the same bytes. Totals (InvoiceTotalsType):
 * TotalGrossAmount = TotalGrossAmountBeforeTaxes = `subtotal`, TotalTaxOutputs =
 * `total_tax_added` (IVA quotas + recargo), TotalTaxesWithheld = `total_tax_withheld`, and
 * InvoiceTotal = TotalOutstandingAmount = TotalExecutableAmount = `amount_payable`: Facturae's
 * invoice total is net of withholdings, so this service's `total` is TotalGrossAmountBeforeTaxes +
 * TotalTaxOutputs.
 */

export const FACTURAE_NS = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml";

type Party = {
  name: string;
  tax_id: { country: string; type: string; value: string } | null;
  address: Address;
};
type Address = NonNullable<Invoice["issuer"]["address"]>;
type Row = Invoice["tax_breakdown"][number];
type LineTax = Invoice["lines"][number]["taxes"][number];
type TaxEntry = { code: string; rate: Decimal; base: bigint; amount: bigint; surcharge?: [Decimal, bigint] };

/** At most `max` characters (code points, as the XSD counts them): Facturae's limits are shorter than the API's. */
const clip = (s: string, max: number) => Array.from(s).slice(0, max).join("");

/** The Facturae 3.2.2 document of an issued (or void) invoice; `corrected` for a corrective one. */
export function facturaeDocument(invoice: Invoice, corrected: CorrectedInvoice | null): string {
  const { number, issue_date } = invoice;
  if (number === null || issue_date === null) throw new Error("a draft has no Facturae document");
  const missing = missingData(invoice, corrected);
  if (missing.length > 0) throw new EinvoiceMissingDataError("Facturae", missing);
  const customer = invoice.customer!;

  const exponent = parseDecimal(invoice.subtotal)!.scale;
  const money = (minor: bigint) => formatMinor(minor, exponent);
  const minor = (amount: string) => parseDecimal(amount)!.units;
  const amount = (name: string, minorUnits: bigint) => el(name, [el("TotalAmount", money(minorUnits))]);
  const payable = minor(invoice.amount_payable);
  const seller = invoice.issuer as Party;
  const sellerId = taxIdentification(seller);

  const tax = (name: string, t: TaxEntry) =>
    el(name, [
      el("TaxTypeCode", t.code),
      el("TaxRate", rateText(t.rate, 2)),
      amount("TaxableBase", t.base),
      amount("TaxAmount", t.amount),
      t.surcharge && el("EquivalenceSurcharge", rateText(t.surcharge[0], 2, 2)),
      t.surcharge && amount("EquivalenceSurchargeAmount", t.surcharge[1]),
    ]);
  const taxes = (name: string, entries: TaxEntry[]) =>
    el(
      name,
      entries.map((t) => tax("Tax", t)),
    );

  const header = el("FileHeader", [
    el("SchemaVersion", "3.2.2"),
    el("Modality", "I"),
    el("InvoiceIssuerType", "EM"),
    el("Batch", [
      el("BatchIdentifier", clip(`${sellerId.number}-${number}`, 70)),
      el("InvoicesCount", "1"),
      amount("TotalInvoicesAmount", payable),
      amount("TotalOutstandingAmount", payable),
      amount("TotalExecutableAmount", payable),
      el("InvoiceCurrencyCode", invoice.currency),
    ]),
  ]);

  const dir3 = customer.einvoicing?.dir3;
  const centres =
    dir3 &&
    el(
      "AdministrativeCentres",
      FACTURAE_DIR3_ROLES.map(({ field, role, name }) => {
        const code = dir3[field];
        return code
          ? el("AdministrativeCentre", [
              el("CentreCode", code),
              el("RoleTypeCode", role),
              address(customer.address!),
              el("CentreDescription", name),
            ])
          : null;
      }),
    );
  const contact = el("ContactDetails", [
    customer.phone && customer.phone.length <= 15 ? el("Telephone", customer.phone) : null,
    customer.email && customer.email.length <= 60 ? el("ElectronicMail", customer.email) : null,
  ]);
  const parties = el("Parties", [
    el("SellerParty", [taxIdXml(sellerId), legalEntity(seller)]),
    el("BuyerParty", [
      taxIdXml(taxIdentification(customer as Party)),
      centres,
      legalEntity(customer as Party, contact),
    ]),
  ]);

  const added = invoice.tax_breakdown.filter((r) => r.effect === "added" && r.tax !== "recargo_equivalencia");
  const outputs = added.flatMap((row) => outputEntries(row, invoice.tax_breakdown, minor));
  const withheld = invoice.tax_breakdown
    .filter((r) => r.effect === "withheld")
    .map((r) =>
      entry(facturaeTaxTypeOf(r.tax), r.rate, minor(r.base), r.amount === null ? 0n : minor(r.amount)),
    );
  const zero = (base: bigint) => [entry(FACTURAE_TAX_TYPES.custom, null, base, 0n)];

  const head = el("InvoiceHeader", [
    el("InvoiceNumber", numberText(number, invoice.series)),
    el("InvoiceSeriesCode", invoice.series),
    el("InvoiceDocumentType", invoice.type === "simplified" ? "FA" : "FC"),
    el("InvoiceClass", invoice.type === "corrective" ? "OR" : "OO"),
    corrected && correctiveXml(invoice, corrected),
  ]);
  const issueData = el("InvoiceIssueData", [
    el("IssueDate", issue_date),
    invoice.operation_date !== issue_date ? el("OperationDate", invoice.operation_date) : null,
    el("InvoiceCurrencyCode", invoice.currency),
    // A `global` account's taxes are not Spanish; without an exchange rate they stay in the invoice's currency.
    el("TaxCurrencyCode", invoice.currency),
    el("LanguageName", "es"),
  ]);
  const totals = el("InvoiceTotals", [
    el("TotalGrossAmount", invoice.subtotal),
    el("TotalGrossAmountBeforeTaxes", invoice.subtotal),
    el("TotalTaxOutputs", invoice.total_tax_added),
    el("TotalTaxesWithheld", invoice.total_tax_withheld),
    el("InvoiceTotal", invoice.amount_payable),
    el("TotalOutstandingAmount", invoice.amount_payable),
    el("TotalExecutableAmount", invoice.amount_payable),
  ]);

  const items = el(
    "Items",
    invoice.lines.map((line) => {
      const base = minor(line.amount);
      const iva = line.taxes.find((t) => t.tax === "iva");
      const re = line.taxes.find((t) => t.tax === "recargo_equivalencia");
      const lineOutputs = line.taxes
        .filter((t) => t.effect === "added" && t.tax !== "recargo_equivalencia")
        .map((t) => {
          const e = entry(facturaeTaxTypeOf(t.tax), t.rate, base, null);
          if (t === iva && re?.rate) e.surcharge = surchargeOf(re.rate, base);
          return e;
        });
      const lineWithheld = line.taxes
        .filter((t) => t.effect === "withheld")
        .map((t) => entry(facturaeTaxTypeOf(t.tax), t.rate, base, null));
      const special = iva && facturaeSpecialEventOf(iva);
      return el("InvoiceLine", [
        el("ItemDescription", clip(line.description, 2500)),
        el("Quantity", line.quantity),
        el("UnitOfMeasure", facturaeUnitOf(line.unit_code)),
        el("UnitPriceWithoutTax", line.unit_price),
        el("TotalCost", line.amount),
        el("GrossAmount", line.amount),
        lineWithheld.length > 0 && taxes("TaxesWithheld", lineWithheld),
        taxes("TaxesOutputs", lineOutputs.length > 0 ? lineOutputs : zero(base)),
        special &&
          el("SpecialTaxableEvent", [
            el("SpecialTaxableEventCode", special),
            el("SpecialTaxableEventReason", clip(literalOf(rowOf(invoice, iva)) ?? iva.name, 2500)),
          ]),
      ]);
    }),
  );

  const option = invoice.payment_terms.options[0];
  const payment =
    option && payable > 0n
      ? el("PaymentDetails", [
          el("Installment", [
            el("InstallmentDueDate", invoice.payment_terms.due_date ?? issue_date),
            el("InstallmentAmount", formatMinor(roundToScale(payable, exponent, 2), 2)),
            el("PaymentMeans", FACTURAE_PAYMENT_MEANS[option.type]),
            el("AccountToBeCredited", [
              el("IBAN", option.bank_transfer.iban),
              // BICType is 11 characters: an 8-character BIC is its head office, "XXX".
              el("BIC", option.bank_transfer.bic?.padEnd(11, "X")),
            ]),
            el("PaymentReconciliationReference", option.reference && clip(option.reference, 60)),
          ]),
        ])
      : null;

  // Legal literals: the mentions the exemptions and reverse charges need (RD 1619/2012 art. 6.1.j
  // and m), and the VERI*FACTU QR's URL. Facturae has no field of its own for it; Orden
  // HAC/1177/2024 art. 20.2 has an electronic invoice carry the QR's content, its URL, and the
  // literals are Facturae's place for text an invoice must carry by law.
  const qr = invoice.verifactu?.qr_url;
  const literals = [
    ...new Set(invoice.tax_breakdown.map(literalOf).filter((l): l is string => l !== null)),
    ...(qr ? [`QR tributario: ${qr}`.length <= 250 ? `QR tributario: ${qr}` : qr] : []),
  ];

  const body = el("Invoices", [
    el("Invoice", [
      head,
      issueData,
      taxes("TaxesOutputs", outputs.length > 0 ? outputs : zero(minor(invoice.subtotal))),
      withheld.length > 0 && taxes("TaxesWithheld", withheld),
      totals,
      items,
      payment,
      el(
        "LegalLiterals",
        literals.map((l) => el("LegalReference", clip(l, 250))),
      ),
      el("AdditionalData", [el("InvoiceAdditionalInformation", invoice.notes && clip(invoice.notes, 2500))]),
    ]),
  ]);

  return `<?xml version="1.0" encoding="UTF-8"?>\n<fe:Facturae xmlns:fe="${FACTURAE_NS}">${header}${parties}${body}</fe:Facturae>\n`;
}

/** What the invoice lacks for a Facturae document, in words for an API user; empty when nothing. */
function missingData(invoice: Invoice, corrected: CorrectedInvoice | null): string[] {
  const missing: string[] = [];
  const party = (who: string, p: Party | null) => {
    if (!p) return;
    if (!p.tax_id) missing.push(`the ${who}'s Tax ID`);
    if (!p.address) missing.push(`the ${who}'s address`);
    else if (facturaeCountryOf(p.address.country) === null) {
      missing.push(
        `a country Facturae lists in the ${who}'s address (${p.address.country} has no CountryType code)`,
      );
    }
  };
  party("issuer", invoice.issuer as Party);
  if (!invoice.customer) missing.push("a customer (Facturae names the buyer, BuyerParty, on every invoice)");
  party("customer", invoice.customer as Party | null);
  if (!FACTURAE_CURRENCIES.has(invoice.currency)) {
    missing.push(`a currency Facturae 3.2.2 lists (${invoice.currency} is not in its CurrencyCodeType)`);
  }
  if (invoice.type === "corrective" && (!corrected || !invoice.corrects))
    missing.push("the corrected invoice");
  return missing;
}

function correctiveXml(invoice: Invoice, corrected: CorrectedInvoice): string {
  const reason = facturaeReasonOf(invoice.corrects!.reason);
  return el("Corrective", [
    el("InvoiceNumber", numberText(corrected.number, null)),
    el("ReasonCode", reason.code),
    el("ReasonDescription", reason.description),
    // The tax period of the corrected operation: the corrected invoice's date, as FACe's examples write it.
    el("TaxPeriod", [el("StartDate", corrected.issue_date), el("EndDate", corrected.issue_date)]),
    el("CorrectionMethod", FACTURAE_CORRECTION_METHOD.code),
    el("CorrectionMethodDescription", FACTURAE_CORRECTION_METHOD.description),
    el("InvoiceIssueDate", corrected.issue_date),
  ]);
}

/** InvoiceNumber is TextMax20: the number as issued, or without its "SERIES-" head when too long. */
function numberText(number: string, series: string | null): string {
  if (number.length <= 20) return number;
  const head = series ?? number.slice(0, number.indexOf("-"));
  const tail = number.startsWith(`${head}-`) ? number.slice(head.length + 1) : number;
  return clip(tail, 20);
}

/** A Spanish NIF's holder: an individual (DNI digits, NIE X/Y/Z, K/L/M) or an entity (letters). */
const individual = (nif: string) => /^[0-9KLMXYZ]/.test(nif);

function taxIdentification(p: Party) {
  const { country, value } = p.tax_id!;
  const residence = country === "ES" ? "R" : EU_MEMBER_STATES.has(country) ? "U" : "E";
  const number = residence === "R" && /^ES[0-9A-Z]{9}$/.test(value) ? value.slice(2) : value;
  const person = residence === "R" && individual(number) ? "F" : "J";
  return { person, residence, number };
}

const taxIdXml = (t: ReturnType<typeof taxIdentification>) =>
  el("TaxIdentification", [
    el("PersonTypeCode", t.person),
    el("ResidenceTypeCode", t.residence),
    el("TaxIdentificationNumber", clip(t.number, 30)),
  ]);

/**
 * Always a LegalEntity with the name as CorporateName: the API keeps one name, and Individual
 * wants it split into name and surnames, which cannot be done reliably.
 */
const legalEntity = (p: Party, contact?: XmlNode) =>
  el("LegalEntity", [el("CorporateName", clip(p.name, 80)), address(p.address), contact]);

function address(a: Address): string {
  const street = clip(a.line_2 ? `${a.line_1}, ${a.line_2}` : a.line_1, 80);
  if (a.country === "ES" && /^\d{5}$/.test(a.postal_code)) {
    return el("AddressInSpain", [
      el("Address", street),
      el("PostCode", a.postal_code),
      el("Town", clip(a.city, 50)),
      el("Province", clip(a.state ?? spanishProvinceOf(a.postal_code) ?? a.city, 20)),
      el("CountryCode", "ESP"),
    ]);
  }
  return el("OverseasAddress", [
    el("Address", street),
    el("PostCodeAndTown", clip(`${a.postal_code} ${a.city}`, 50)),
    el("Province", clip(a.state ?? a.city, 20)),
    el("CountryCode", facturaeCountryOf(a.country)),
  ]);
}

const NO_RATE: Decimal = { units: 0n, scale: 0 };

/** A tax entry at `rate` (0 when it has none: exempt, reverse charge, not subject); `amount` null computes it. */
function entry(code: string, rate: string | null, base: bigint, amount: bigint | null): TaxEntry {
  const r = (rate && parsePercent(rate)) || NO_RATE;
  return { code, rate: r, base, amount: amount ?? (rate ? percentOfMinor(base, r) : 0n) };
}

const surchargeOf = (rate: string, base: bigint): [Decimal, bigint] => {
  const r = parsePercent(rate)!;
  return [r, percentOfMinor(base, r)];
};

/**
 * The invoice-level IVA entries of a breakdown row, with the recargo of the same rule on it. When
 * only some of the row's lines carry recargo, the row is split in two entries (with and without
 * recargo) whose bases and quotas add up to the row's, as the VERI*FACTU record does (desglose.ts).
 */
function outputEntries(row: Row, rows: readonly Row[], minor: (s: string) => bigint): TaxEntry[] {
  const base = minor(row.base);
  const quota = row.amount === null ? 0n : minor(row.amount);
  const main = entry(facturaeTaxTypeOf(row.tax), row.rate, base, quota);
  const re =
    row.tax === "iva" ? rows.find((r) => r.tax === "recargo_equivalencia" && r.rule === row.rule) : undefined;
  if (!re?.rate || re.amount === null) return [main];
  const reBase = minor(re.base);
  const surcharge: [Decimal, bigint] = [parsePercent(re.rate)!, minor(re.amount)];
  if (reBase === base) return [{ ...main, surcharge }];
  const reQuota = percentOfMinor(reBase, main.rate);
  return [
    { ...main, base: reBase, amount: reQuota, surcharge },
    { ...main, base: base - reBase, amount: quota - reQuota },
  ];
}

/** The breakdown row a line's tax falls in. */
const rowOf = (invoice: Invoice, t: LineTax) =>
  invoice.tax_breakdown.find(
    (r) => r.tax === t.tax && r.rule === t.rule && r.name === t.name && r.rate === t.rate,
  );

/** The legal mention of a row whose tax is not charged; null for a taxable row. */
function literalOf(row: Row | undefined): string | null {
  if (!row || row.treatment === "taxable") return null;
  const ref = row.legal_reference ? ` (${row.legal_reference})` : "";
  if (row.treatment === "reverse_charge") {
    const place = row.authority_code === "N2" ? "Operación no sujeta por reglas de localización, " : "";
    return `${place}${place ? "i" : "I"}nversión del sujeto pasivo${ref}`;
  }
  return `${row.treatment === "exempt" ? "Operación exenta" : "Operación no sujeta"}${ref}`;
}

/** A rate as TaxRate writes it: at least `min` decimals (21.00), at most `max` when given. */
function rateText(rate: Decimal, min: number, max?: number): string {
  const scale = Math.min(Math.max(rate.scale, min), max ?? Number.POSITIVE_INFINITY);
  return formatMinor(roundToScale(rate.units, rate.scale, scale), scale);
}
