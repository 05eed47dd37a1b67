import { computeInvoice, type LineInput } from "../../src/invoices/compute";
import type { Invoice } from "../../src/invoices/schemas";
import { formatMinor } from "../../src/lib/money";

/**
 * Invoice API objects for the VERI*FACTU tests, with lines, breakdown and totals computed by the
 * real arithmetic (`computeInvoice`), as issuance would store and serialize them. Shared by the
 * workerd unit tests and the Node XSD test, so it imports nothing runtime-specific.
 */

const money = (minor: bigint) => formatMinor(minor, 2);

const address = {
  line_1: "Calle Mayor 1",
  line_2: null,
  city: "Madrid",
  postal_code: "28013",
  state: null,
  country: "ES",
};

export const ISSUER: Invoice["issuer"] = {
  name: "Ferretería Núñez S.L.",
  tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
  address,
};

type TaxId = NonNullable<Invoice["customer"]>["tax_id"];

export function customer(name: string, tax_id: Omit<TaxId, "id">): NonNullable<Invoice["customer"]> {
  return { id: "cus_test", name, tax_id: { id: "txi_test", ...tax_id }, email: null, phone: null, address };
}

export const SPANISH_CUSTOMER = customer("Cliente & Hijos <S.A.>", {
  country: "ES",
  type: "es_nif",
  value: "12345678Z",
});
export const GERMAN_CUSTOMER = customer("Kunde GmbH", {
  country: "DE",
  type: "eu_vat",
  value: "DE136695976",
});

export const line = (
  quantity: string,
  unit_price: string,
  ...taxes: { tax: string; rule: string }[]
): LineInput => ({
  description: "Consulting",
  quantity,
  unit_price,
  taxes,
});
export const iva = (rule: string) => ({ tax: "iva", rule });
export const irpf = (rule: string) => ({ tax: "irpf", rule });
export const re = (rule: string) => ({ tax: "recargo_equivalencia", rule });

export interface InvoiceSpec {
  lines: LineInput[];
  type?: Invoice["type"];
  number?: string;
  issue_date?: string;
  operation_date?: string | null;
  customer?: Invoice["customer"];
  corrects?: Invoice["corrects"];
}

/** A computed invoice's lines, breakdown and totals as the API writes them (two decimals). */
export function amountsOf(c: ReturnType<typeof computeInvoice>) {
  return {
    lines: c.lines.map((l) => ({ ...l, amount: money(l.amount) })),
    tax_breakdown: c.tax_breakdown.map((r) => ({
      ...r,
      base: money(r.base),
      amount: r.amount === null ? null : money(r.amount),
    })),
    subtotal: money(c.subtotal),
    total_tax_added: money(c.total_tax_added),
    total_tax_withheld: money(c.total_tax_withheld),
    total: money(c.total),
    amount_payable: money(c.amount_payable),
  };
}

export function esInvoice(spec: InvoiceSpec): Invoice {
  const issue_date = spec.issue_date ?? "2026-11-23";
  const operation_date = spec.operation_date ?? null;
  const c = computeInvoice({
    regime: "es",
    exponent: 2,
    lines: spec.lines,
    taxDates: { supply: operation_date ?? issue_date, withholding: issue_date },
  });
  return {
    id: "inv_test",
    object: "invoice",
    live: false,
    type: spec.type ?? "ordinary",
    status: "issued",
    number: spec.number ?? "INV-0001",
    series: "INV",
    numbering: "series",
    issue_date,
    operation_date,
    currency: "EUR",
    issuer: ISSUER,
    customer: spec.customer === undefined ? SPANISH_CUSTOMER : spec.customer,
    ...amountsOf(c),
    payment_terms: { due_date: null, options: [] },
    corrects: spec.corrects ?? null,
    corrected_by: [],
    verifactu: null,
    notes: null,
    created_at: "2026-11-23T09:00:00.000Z",
  };
}

/** 2026-11-23T10:00:00+01:00, the record's generation time in the tests. */
export const GENERATED_AT = Date.parse("2026-11-23T09:00:00Z");
