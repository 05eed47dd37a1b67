import type { Invoice } from "../invoices/schemas";
import {
  type Decimal,
  formatMinor,
  parseDecimal,
  parsePercent,
  percentOfMinor,
  roundToScale,
} from "../lib/money";
import { el } from "../lib/xml";
import { clip, missingPartyData, partiesXml, taxIdentification } from "./facturae-parties";
import {
  FACTURAE_CORRECTION_METHOD,
  FACTURAE_CURRENCIES,
  FACTURAE_PAYMENT_MEANS,
  FACTURAE_TAX_TYPES,
  facturaeReasonOf,
  facturaeSpecialEventOf,
  facturaeTaxTypeOf,
  facturaeUnitOf,
} from "./mappings";
import { unitCodeOf } from "./snapshot";
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

type Row = Invoice["tax_breakdown"][number];
type Line = Invoice["lines"][number];
type LineTax = Line["taxes"][number];
type TaxEntry = { code: string; rate: Decimal; base: bigint; amount: bigint; surcharge?: [Decimal, bigint] };

/** Amounts in the invoice's currency: minor units in, decimal strings with its decimals out. */
function moneyOf(invoice: Invoice) {
  const exponent = parseDecimal(invoice.subtotal)!.scale;
  return {
    exponent,
    minor: (amount: string) => parseDecimal(amount)!.units,
    /** An AmountType element. */
    amount: (name: string, minor: bigint) => el(name, [el("TotalAmount", formatMinor(minor, exponent))]),
  };
}
type Money = ReturnType<typeof moneyOf>;

/** The Facturae 3.2.2 document of an issued (or void) invoice; `corrected` for a corrective one. */
export function facturaeDocument(invoice: Invoice, corrected: CorrectedInvoice | null): string {
  if (invoice.number === null || invoice.issue_date === null)
    throw new Error("a draft has no Facturae document");
  const missing = [...missingPartyData(invoice), ...missingInvoiceData(invoice, corrected)];
  if (missing.length > 0) throw new EinvoiceMissingDataError("Facturae", missing);
  const money = moneyOf(invoice);
  const payable = money.minor(invoice.amount_payable);
  const header = el("FileHeader", [
    el("SchemaVersion", "3.2.2"),
    el("Modality", "I"),
    el("InvoiceIssuerType", "EM"),
    el("Batch", [
      el("BatchIdentifier", clip(`${taxIdentification(invoice.issuer).number}-${invoice.number}`, 70)),
      el("InvoicesCount", "1"),
      money.amount("TotalInvoicesAmount", payable),
      money.amount("TotalOutstandingAmount", payable),
      money.amount("TotalExecutableAmount", payable),
      el("InvoiceCurrencyCode", invoice.currency),
    ]),
  ]);
  const body = el("Invoices", [invoiceXml(invoice, corrected, money)]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<fe:Facturae xmlns:fe="${FACTURAE_NS}">${header}${partiesXml(invoice)}${body}</fe:Facturae>\n`;
}

/** What the invoice lacks for Facturae besides its parties. */
function missingInvoiceData(invoice: Invoice, corrected: CorrectedInvoice | null): string[] {
  const missing: string[] = [];
  if (!FACTURAE_CURRENCIES.has(invoice.currency)) {
    missing.push(`a currency Facturae 3.2.2 lists (${invoice.currency} is not in its CurrencyCodeType)`);
  }
  if (invoice.type === "corrective" && (!corrected || !invoice.corrects))
    missing.push("the corrected invoice");
  return missing;
}

function invoiceXml(invoice: Invoice, corrected: CorrectedInvoice | null, money: Money): string {
  const { minor } = money;
  const issueDate = invoice.issue_date!;
  const rows = invoice.tax_breakdown;
  const outputs = rows
    .filter((r) => r.effect === "added" && r.tax !== "recargo_equivalencia")
    .flatMap((row) => outputEntries(row, rows, minor));
  const withheld = rows
    .filter((r) => r.effect === "withheld")
    .map((r) =>
      entry(facturaeTaxTypeOf(r.tax), r.rate, minor(r.base), r.amount === null ? 0n : minor(r.amount)),
    );
  // Legal literals: the mentions the exemptions and reverse charges need (RD 1619/2012 art. 6.1.j
  // and m), and the VERI*FACTU QR's URL. Facturae has no field of its own for it; Orden
  // HAC/1177/2024 art. 20.2 has an electronic invoice carry the QR's content, its URL, and the
  // literals are Facturae's place for text an invoice must carry by law.
  const qr = invoice.verifactu?.qr_url;
  const literals = [
    ...new Set(rows.map(literalOf).filter((l): l is string => l !== null)),
    ...(qr ? [`QR tributario: ${qr}`.length <= 250 ? `QR tributario: ${qr}` : qr] : []),
  ];

  return el("Invoice", [
    el("InvoiceHeader", [
      el("InvoiceNumber", numberText(invoice.number!, invoice.series)),
      el("InvoiceSeriesCode", invoice.series),
      el("InvoiceDocumentType", invoice.type === "simplified" ? "FA" : "FC"),
      el("InvoiceClass", invoice.type === "corrective" ? "OR" : "OO"),
      corrected && correctiveXml(invoice, corrected),
    ]),
    el("InvoiceIssueData", [
      el("IssueDate", issueDate),
      invoice.operation_date !== issueDate ? el("OperationDate", invoice.operation_date) : null,
      el("InvoiceCurrencyCode", invoice.currency),
      // A `global` account's taxes are not Spanish; with no exchange rate they stay in the invoice's currency.
      el("TaxCurrencyCode", invoice.currency),
      el("LanguageName", "es"),
    ]),
    taxesXml("TaxesOutputs", outputs.length > 0 ? outputs : untaxed(minor(invoice.subtotal)), money),
    withheld.length > 0 && taxesXml("TaxesWithheld", withheld, money),
    el("InvoiceTotals", [
      el("TotalGrossAmount", invoice.subtotal),
      el("TotalGrossAmountBeforeTaxes", invoice.subtotal),
      el("TotalTaxOutputs", invoice.total_tax_added),
      el("TotalTaxesWithheld", invoice.total_tax_withheld),
      el("InvoiceTotal", invoice.amount_payable),
      el("TotalOutstandingAmount", invoice.amount_payable),
      el("TotalExecutableAmount", invoice.amount_payable),
    ]),
    el(
      "Items",
      invoice.lines.map((line) => lineXml(invoice, line, money)),
    ),
    paymentXml(invoice, money),
    el(
      "LegalLiterals",
      literals.map((l) => el("LegalReference", clip(l, 250))),
    ),
    el("AdditionalData", [el("InvoiceAdditionalInformation", invoice.notes && clip(invoice.notes, 2500))]),
  ]);
}

function lineXml(invoice: Invoice, line: Line, money: Money): string {
  const base = money.minor(line.amount);
  const iva = line.taxes.find((t) => t.tax === "iva");
  const re = line.taxes.find((t) => t.tax === "recargo_equivalencia");
  const outputs = line.taxes
    .filter((t) => t.effect === "added" && t.tax !== "recargo_equivalencia")
    .map((t) => {
      const e = entry(facturaeTaxTypeOf(t.tax), t.rate, base, null);
      if (t === iva && re?.rate) e.surcharge = surchargeOf(re.rate, base);
      return e;
    });
  const withheld = line.taxes
    .filter((t) => t.effect === "withheld")
    .map((t) => entry(facturaeTaxTypeOf(t.tax), t.rate, base, null));
  const special = iva && facturaeSpecialEventOf(iva);
  return el("InvoiceLine", [
    el("ItemDescription", clip(line.description, 2500)),
    el("Quantity", line.quantity),
    el("UnitOfMeasure", facturaeUnitOf(unitCodeOf(line))),
    el("UnitPriceWithoutTax", line.unit_price),
    // TotalCost (quantity × unit price) as the invoice rounded it to the currency: the line's amount.
    el("TotalCost", line.amount),
    el("GrossAmount", line.amount),
    withheld.length > 0 && taxesXml("TaxesWithheld", withheld, money),
    taxesXml("TaxesOutputs", outputs.length > 0 ? outputs : untaxed(base), money),
    special &&
      el("SpecialTaxableEvent", [
        el("SpecialTaxableEventCode", special),
        el("SpecialTaxableEventReason", clip(literalOf(rowOf(invoice, iva)) ?? iva.name, 2500)),
      ]),
  ]);
}

/** One Installment paying `amount_payable` into the first payment option's account; none when nothing is owed. */
function paymentXml(invoice: Invoice, money: Money): string | null {
  const option = invoice.payment_terms.options[0];
  const payable = money.minor(invoice.amount_payable);
  if (!option || payable <= 0n) return null;
  return el("PaymentDetails", [
    el("Installment", [
      el("InstallmentDueDate", invoice.payment_terms.due_date ?? invoice.issue_date),
      el("InstallmentAmount", formatMinor(roundToScale(payable, money.exponent, 2), 2)),
      el("PaymentMeans", FACTURAE_PAYMENT_MEANS[option.type]),
      el("AccountToBeCredited", [
        el("IBAN", option.bank_transfer.iban),
        // BICType is 11 characters: an 8-character BIC is its head office, "XXX".
        el("BIC", option.bank_transfer.bic?.padEnd(11, "X")),
      ]),
      el("PaymentReconciliationReference", option.reference && clip(option.reference, 60)),
    ]),
  ]);
}

const taxesXml = (name: string, entries: TaxEntry[], { amount }: Money) =>
  el(
    name,
    entries.map((t) =>
      el("Tax", [
        el("TaxTypeCode", t.code),
        el("TaxRate", rateText(t.rate, 2)),
        amount("TaxableBase", t.base),
        amount("TaxAmount", t.amount),
        t.surcharge && el("EquivalenceSurcharge", rateText(t.surcharge[0], 2, 2)),
        t.surcharge && amount("EquivalenceSurchargeAmount", t.surcharge[1]),
      ]),
    ),
  );

/**
 * TaxesOutputs needs at least one Tax: a `global` line (or invoice) with no added tax gets "other"
 * (05) at 0 %.
 */
const untaxed = (base: bigint) => [entry(FACTURAE_TAX_TYPES.custom, null, base, 0n)];

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
