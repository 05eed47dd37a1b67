import { computeInvoice, type LineInput } from "../../src/invoices/compute";
import type { Invoice } from "../../src/invoices/schemas";
import type { PdfInput } from "../../src/pdf/render";
import { qrUrl } from "../../src/verifactu/qr";
import {
  amountsOf,
  customer,
  esInvoice,
  GERMAN_CUSTOMER,
  type InvoiceSpec,
  irpf,
  iva,
  re,
} from "./verifactu-invoices";

/**
 * Invoices for the PDF tests and the README sample, built like the API builds them (the real
 * arithmetic through `esInvoice` / `computeInvoice`), with the QR URL the VERI*FACTU module makes.
 */

/** A line with its description and catalog or custom taxes. */
export const item = (
  description: string,
  quantity: string,
  unit_price: string,
  ...taxes: LineInput["taxes"]
) => ({
  description,
  quantity,
  unit_price,
  taxes,
});

/** An `es` invoice with its QR URL (Test mode, AEAT's pre-production host). */
export function esInput(
  spec: InvoiceSpec,
  extra: Partial<Invoice> = {},
  corrected: PdfInput["corrected"] = null,
) {
  const invoice: Invoice = { ...esInvoice(spec), ...extra };
  const url = qrUrl({
    nif: invoice.issuer.tax_id!.value,
    number: invoice.number,
    date: invoice.issue_date,
    total: invoice.total,
    live: false,
  });
  return { invoice, corrected, qrUrl: url } satisfies PdfInput;
}

const TRANSFER = {
  payment_instruction: "pmi_01JDTEST0000000000000000",
  type: "bank_transfer" as const,
  bank_transfer: {
    beneficiary: "Ferretería Núñez S.L.",
    iban: "ES9121000418450200051332",
    bic: "CAIXESBBXXX",
  },
  reference: "INV-0042",
};

/** The README sample: IVA 21 % and 10 %, IRPF, recargo, an operation date, payment terms and notes. */
export const SPANISH = esInput(
  {
    number: "INV-0042",
    operation_date: "2026-11-15",
    customer: {
      ...customer("Distribuciones Cliente & Hijos S.A.", {
        country: "ES",
        type: "es_nif",
        value: "A58818501",
      }),
      email: "facturas@cliente.example",
    },
    lines: [
      item(
        "Consultoría de implantación del ERP (3 jornadas)",
        "3",
        "450",
        iva("general"),
        irpf("professional"),
      ),
      item(
        "Material de ferretería para reventa: tornillería y anclajes",
        "40",
        "2.35",
        iva("general"),
        re("general"),
      ),
      item("Servicio de catering para la jornada de formación", "1", "180", iva("reduced"), re("reduced")),
      item("Desplazamiento", "1", "60", iva("general")),
    ],
  },
  {
    payment_terms: { due_date: "2026-12-23", options: [TRANSFER] },
    notes: "Gracias por su confianza.\nPago a 30 días desde la fecha de la factura.",
  },
);

/** Exempt, domestic reverse charge and not subject, to a Spanish business. */
export const EXEMPT = esInput({
  number: "INV-0043",
  lines: [
    item("Curso de formación profesional reglada", "1", "900", iva("exempt_art_20")),
    item("Ejecución de obra: reforma de nave industrial", "1", "12000", iva("reverse_charge")),
    item("Servicio prestado en Andorra", "1", "300", iva("not_subject_location")),
  ],
});

/** Services to an EU business: reverse charge with the art. 69 reference. */
export const EU_REVERSE_CHARGE = esInput({
  number: "INV-0044",
  customer: GERMAN_CUSTOMER,
  lines: [item("Software development services, November", "1", "2500", iva("reverse_charge_eu"))],
});

export const CORRECTIVE = esInput(
  {
    type: "corrective",
    number: "COR-0007",
    corrects: { invoice: "inv_01JDCORRECTED00000000000", reason: "R1" },
    lines: [item("Consultoría: una jornada no realizada", "1", "-450", iva("general"), irpf("professional"))],
  },
  { series: "COR" },
  { number: "INV-0042", issue_date: "2026-11-20" },
);

export const SIMPLIFIED = esInput(
  {
    type: "simplified",
    number: "SIM-0108",
    customer: null,
    lines: [item("Caja de herramientas", "1", "49.9", iva("general"))],
  },
  { series: "SIM" },
);

/** A `global` account's invoice: custom taxes, USD, no QR. */
export function globalInput(lines: LineInput[], extra: Partial<Invoice> = {}): PdfInput {
  const c = computeInvoice({
    regime: "global",
    exponent: 2,
    lines,
    taxDates: { supply: "2026-11-23", withholding: "2026-11-23" },
  });
  const invoice: Invoice = {
    id: "inv_global",
    object: "invoice",
    live: false,
    type: "ordinary",
    status: "issued",
    number: "GL-2026-0031",
    series: "GL",
    numbering: "series",
    issue_date: "2026-11-23",
    operation_date: null,
    currency: "USD",
    issuer: {
      name: "Acme Consulting LLC",
      tax_id: { country: "US", type: "local", value: "123456789" },
      address: {
        line_1: "500 Market Street",
        line_2: "Suite 200",
        city: "San Francisco",
        postal_code: "94105",
        state: "CA",
        country: "US",
      },
    },
    customer: {
      ...customer("Northwind Traders Pty Ltd", { country: "AU", type: "local", value: "51824753556" }),
      address: {
        line_1: "1 George Street",
        line_2: null,
        city: "Sydney",
        postal_code: "2000",
        state: "NSW",
        country: "AU",
      },
    },
    ...amountsOf(c),
    payment_terms: { due_date: null, options: [] },
    corrects: null,
    corrected_by: [],
    notes: null,
    verifactu: null,
    created_at: "2026-11-23T18:30:00.000Z",
    ...extra,
  };
  return { invoice, corrected: null, qrUrl: null };
}

export const GLOBAL = globalInput([
  item(
    "Strategy workshop",
    "2",
    "1500",
    { name: "GST", rate: "10%", effect: "added" },
    { name: "WHT", rate: "5%", effect: "withheld" },
  ),
  item("Travel expenses", "1", "320.5", { name: "GST", rate: "10%", effect: "added" }),
]);

/** Names and descriptions in many scripts. */
export const SCRIPTS = {
  latin: "Łódź Żółć Ærøskøbing Şişli Đakovo",
  greek: "Ελληνική Εταιρεία Α.Ε.",
  cyrillic: "ООО Ромашка Москва",
  arabic: "شركة المثال للتجارة",
  hebrew: "חברת דוגמה בע״מ",
  cjk: "株式会社東京商事 北京贸易有限公司 서울상사",
  emoji: "Café ☕ 🚀 👩‍💻 🇪🇸",
} as const;

export const MULTISCRIPT = esInput(
  {
    number: "INV-0045",
    customer: customer(`${SCRIPTS.greek} / ${SCRIPTS.arabic}`, {
      country: "GR",
      type: "eu_vat",
      value: "EL094259216",
    }),
    lines: Object.entries(SCRIPTS).map(([script, text]) =>
      item(`${script}: ${text}`, "1", "10", iva("general")),
    ),
  },
  {
    issuer: {
      name: `${SCRIPTS.latin} ${SCRIPTS.cyrillic} ${SCRIPTS.hebrew} ${SCRIPTS.cjk} ${SCRIPTS.emoji}`,
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
      address: null,
    },
  },
);
