import type {
  AnulacionBody,
  Destinatario,
  IdFactura,
  RecordBody,
  RegistroAlta,
  RegistroAnulacion,
  SistemaInformatico,
  TipoFactura,
} from "../contracts/verifactu-record";
import type { Invoice } from "../invoices/schemas";
import { desglose } from "./desglose";
import { aeatAmount, aeatCents, aeatDate, aeatTimestamp, clip, UnregistrableInvoice } from "./format";
import { cancellationHash, recordHash } from "./hash";
import { SOFTWARE } from "./software";

/** What the record needs beyond the invoice. */
export interface BodyOptions {
  software?: SistemaInformatico;
  /**
   * For a corrective invoice: the corrected invoice's number, issue date and operation date
   * (the invoice object holds only its id).
   */
  corrected?: { number: string; issue_date: string; operation_date?: string | null } | null;
}

/** The chain: the previous record of the same account and environment, and when this one was generated. */
export interface ChainOptions {
  /** The chain's previous record, or null for the first one. */
  previous: { IDFactura: IdFactura; Huella: string } | null;
  /** When the record was generated, in ms. */
  generatedAt: number;
}

type TaxId = { country: string; type: string; value: string };

/** A Spanish NIF: an `es_nif`, or a Spanish `eu_vat` without its `ES` prefix. */
export function spanishNif(taxId: TaxId | null): string | null {
  if (taxId?.type === "es_nif") return taxId.value;
  if (taxId?.type === "eu_vat" && taxId.country === "ES") return taxId.value.slice(2);
  return null;
}

function recipient(customer: NonNullable<Invoice["customer"]>): Destinatario {
  const NombreRazon = clip(customer.name, 120);
  const { tax_id } = customer;
  const NIF = spanishNif(tax_id);
  if (NIF) return { NombreRazon, NIF };
  if (tax_id.value.length > 20) {
    throw new UnregistrableInvoice(
      "a recipient's Tax ID holds at most 20 characters in VERI*FACTU",
      "customer",
    );
  }
  // EU VAT numbers keep their prefix (NIF-IVA, 02); other Tax IDs are the official document of
  // the country of residence (04), or "not registered" (07) for a Spanish one that is no NIF.
  const IDType = tax_id.type === "eu_vat" ? "02" : tax_id.country === "ES" ? "07" : "04";
  return { NombreRazon, IDOtro: { CodigoPais: tax_id.country, IDType, ID: tax_id.value } };
}

function tipoFactura(invoice: Invoice): TipoFactura {
  if (invoice.type === "ordinary") return "F1";
  // A simplified invoice naming its recipient is an F1 (L2: "art. 6, 7.2 y 7.3 del RD
  // 1619/2012") flagged FacturaSimplificadaArt7273; without one it is an F2.
  if (invoice.type === "simplified") return invoice.customer ? "F1" : "F2";
  if (!invoice.corrects) throw new RangeError("a corrective invoice names the invoice it corrects");
  return invoice.corrects.reason;
}

function invoiceNumber(number: string): string {
  if (number.length > 60) throw new RangeError("NumSerieFactura holds at most 60 characters");
  return number;
}

/**
 * The registration record (RegistroAlta) of an issued invoice of an `es` account, before it
 * joins the chain (`sealRecord`). Pure. Throws `UnregistrableInvoice` for an invoice the
 * record cannot hold (more breakdown details than the XSD allows, a long foreign Tax ID, an
 * amount beyond 12 whole digits), and a plain `RangeError` for what issuance of an `es`
 * invoice never produces (no Spanish issuer NIF, a currency other than EUR, a custom tax).
 */
export function recordBody(invoice: Invoice, options: BodyOptions = {}): RecordBody {
  // Only issued invoices are registered: a draft has no number nor, perhaps, a date.
  if (invoice.number === null || invoice.issue_date === null) throw new RangeError("a draft has no record");
  const issuerNif = spanishNif(invoice.issuer.tax_id);
  if (!issuerNif) throw new RangeError("the issuer of a VERI*FACTU record has a Spanish NIF");
  if (invoice.currency !== "EUR") throw new RangeError("VERI*FACTU amounts are in EUR");

  const TipoFactura = tipoFactura(invoice);
  const { details, cuotaTotal } = desglose(invoice.tax_breakdown);
  const corrective: Partial<RecordBody> = {};
  const { corrected } = options;
  let operation = invoice.operation_date;
  if (TipoFactura.startsWith("R")) {
    if (!corrected) throw new RangeError("a corrective record names the corrected invoice's number and date");
    corrective.TipoRectificativa = "I";
    corrective.FacturasRectificadas = [
      {
        IDEmisorFactura: issuerNif,
        NumSerieFactura: invoiceNumber(corrected.number),
        FechaExpedicionFactura: aeatDate(corrected.issue_date),
      },
    ];
    // A correction is of the corrected invoice's operation, taxed at its date's rates (build.ts
    // taxDates): AEAT checks TipoImpositivo against FechaOperacion, else the issue date, so a
    // correction of a temporary rate (2 %, 5 %, 7.5 %: VAL §3.1.3 item 15) is refused without it.
    operation = corrected.operation_date || corrected.issue_date;
  }
  const ImporteTotal = aeatAmount(invoice.total);
  const cents = BigInt(ImporteTotal.replace(".", ""));
  const flags: Partial<RecordBody> = {
    ...(operation && operation !== invoice.issue_date && { FechaOperacion: aeatDate(operation) }),
    ...(invoice.type === "simplified" && invoice.customer && { FacturaSimplificadaArt7273: "S" }),
    // VAL error 1139: Macrodato S is required when |ImporteTotal| >= 100,000,000.00 EUR.
    ...((cents < 0n ? -cents : cents) >= 10_000_000_000n && { Macrodato: "S" }),
  };
  // F2 and corrections of simplified invoices (R5) carry no recipient block: AEAT rejects
  // Destinatarios on them (errors 1189/1190). F1 (a simplified one naming its customer too)
  // requires it.
  const recipients =
    invoice.customer && TipoFactura !== "F2" && TipoFactura !== "R5"
      ? { Destinatarios: [recipient(invoice.customer)] }
      : {};

  return {
    IDVersion: "1.0",
    IDFactura: {
      IDEmisorFactura: issuerNif,
      NumSerieFactura: invoiceNumber(invoice.number),
      FechaExpedicionFactura: aeatDate(invoice.issue_date),
    },
    NombreRazonEmisor: clip(invoice.issuer.name, 120),
    TipoFactura,
    ...corrective,
    DescripcionOperacion: clip(invoice.lines.map((l) => l.description.trim()).join("; "), 500),
    ...flags,
    ...recipients,
    Desglose: details,
    CuotaTotal: aeatCents(cuotaTotal),
    ImporteTotal,
    SistemaInformatico: options.software ?? SOFTWARE,
  };
}

/** What joining its chain adds to a record of either kind, but its hash. */
function linkOf({ previous, generatedAt }: ChainOptions) {
  return {
    Encadenamiento: previous
      ? { RegistroAnterior: { ...previous.IDFactura, Huella: previous.Huella } }
      : { PrimerRegistro: "S" as const },
    FechaHoraHusoGenRegistro: aeatTimestamp(generatedAt),
    TipoHuella: "01" as const,
  };
}

/**
 * The record joined to its chain: the link to `previous`, the generation time and the
 * `Huella` over both. Deterministic, so two processes sealing the same record agree.
 */
export async function sealRecord(
  body: RecordBody,
  { previous, generatedAt }: ChainOptions,
): Promise<RegistroAlta> {
  const link = linkOf({ previous, generatedAt });
  const { FechaHoraHusoGenRegistro } = link;
  return {
    ...body,
    ...link,
    Huella: await recordHash({
      ...body.IDFactura,
      TipoFactura: body.TipoFactura,
      CuotaTotal: body.CuotaTotal,
      ImporteTotal: body.ImporteTotal,
      Huella: previous?.Huella ?? "",
      FechaHoraHusoGenRegistro,
    }),
  };
}

/** The cancellation record (RegistroAnulacion) of the invoice `id` names, before it joins the chain. */
export function cancellationBody(id: IdFactura, software: SistemaInformatico = SOFTWARE): AnulacionBody {
  return {
    IDVersion: "1.0",
    IDFactura: {
      IDEmisorFacturaAnulada: id.IDEmisorFactura,
      NumSerieFacturaAnulada: id.NumSerieFactura,
      FechaExpedicionFacturaAnulada: id.FechaExpedicionFactura,
    },
    SistemaInformatico: software,
  };
}

/** The cancellation record joined to its chain, as `sealRecord` does for a registration. */
export async function sealCancellation(
  body: AnulacionBody,
  { previous, generatedAt }: ChainOptions,
): Promise<RegistroAnulacion> {
  const link = linkOf({ previous, generatedAt });
  const { FechaHoraHusoGenRegistro } = link;
  return {
    ...body,
    ...link,
    Huella: await cancellationHash({
      ...body.IDFactura,
      Huella: previous?.Huella ?? "",
      FechaHoraHusoGenRegistro,
    }),
  };
}
