import { formatMinor } from "../lib/money";
import type { Invoice } from "../routes/invoices/schemas";
import { desglose } from "./desglose";
import { aeatAmount, aeatDate, aeatTimestamp, clip } from "./format";
import { recordHash } from "./hash";
import { SOFTWARE } from "./software";
import type { Destinatario, IdFactura, RegistroAlta, SistemaInformatico, TipoFactura } from "./types";

export interface RecordOptions {
  /** The chain's previous record (same account and environment), or null for the first one. */
  previous: { IDFactura: IdFactura; Huella: string } | null;
  /** When the record is generated, in ms (from the clock). */
  generatedAt: number;
  software?: SistemaInformatico;
  /** For a corrective invoice: the corrected invoice's number and issue date (the invoice object holds only its id). */
  corrected?: { number: string; issue_date: string };
}

type TaxId = { country: string; type: string; value: string };

/** A Spanish NIF: an `es_nif`, or a Spanish `eu_vat` without its `ES` prefix. */
function spanishNif(taxId: TaxId | null): string | null {
  if (taxId?.type === "es_nif") return taxId.value;
  if (taxId?.type === "eu_vat" && taxId.country === "ES") return taxId.value.slice(2);
  return null;
}

function recipient(customer: NonNullable<Invoice["customer"]>): Destinatario {
  const NombreRazon = clip(customer.name, 120);
  const { tax_id } = customer;
  const NIF = spanishNif(tax_id);
  if (NIF) return { NombreRazon, NIF };
  if (tax_id.value.length > 20) throw new RangeError("a recipient's ID holds at most 20 characters");
  // EU VAT numbers keep their prefix (NIF-IVA, 02); other Tax IDs are the official document of
  // the country of residence (04), or "not registered" (07) for a Spanish one that is no NIF.
  const IDType = tax_id.type === "eu_vat" ? "02" : tax_id.country === "ES" ? "07" : "04";
  return { NombreRazon, IDOtro: { CodigoPais: tax_id.country, IDType, ID: tax_id.value } };
}

function tipoFactura(invoice: Invoice): TipoFactura {
  if (invoice.type === "ordinary") return "F1";
  if (invoice.type === "simplified") return "F2";
  if (!invoice.corrects) throw new RangeError("a corrective invoice names the invoice it corrects");
  return invoice.corrects.reason;
}

function invoiceNumber(number: string): string {
  if (number.length > 60) throw new RangeError("NumSerieFactura holds at most 60 characters");
  return number;
}

/**
 * The registration record (RegistroAlta) of an issued invoice of an `es` account, hashed and
 * chained to `previous`. Pure: the caller reads the previous record and stores this one.
 * Throws a `RangeError` for an invoice the record cannot represent (no Spanish issuer NIF, a
 * currency other than EUR, a custom tax…), which issuance of an `es` invoice never produces.
 */
export async function registrationRecord(invoice: Invoice, options: RecordOptions): Promise<RegistroAlta> {
  const issuerNif = spanishNif(invoice.issuer.tax_id);
  if (!issuerNif) throw new RangeError("the issuer of a VERI*FACTU record has a Spanish NIF");
  if (invoice.currency !== "EUR") throw new RangeError("VERI*FACTU amounts are in EUR");

  const TipoFactura = tipoFactura(invoice);
  const IDFactura: IdFactura = {
    IDEmisorFactura: issuerNif,
    NumSerieFactura: invoiceNumber(invoice.number),
    FechaExpedicionFactura: aeatDate(invoice.issue_date),
  };
  const { details, cuotaTotal } = desglose(invoice.tax_breakdown);
  const CuotaTotal = formatMinor(cuotaTotal, 2);
  const ImporteTotal = aeatAmount(invoice.total);
  const FechaHoraHusoGenRegistro = aeatTimestamp(options.generatedAt);
  const { previous } = options;

  const corrective: Partial<RegistroAlta> = {};
  if (TipoFactura.startsWith("R")) {
    const { corrected } = options;
    if (!corrected) throw new RangeError("a corrective record names the corrected invoice's number and date");
    corrective.TipoRectificativa = "I";
    corrective.FacturasRectificadas = [
      {
        IDEmisorFactura: issuerNif,
        NumSerieFactura: invoiceNumber(corrected.number),
        FechaExpedicionFactura: aeatDate(corrected.issue_date),
      },
    ];
  }
  const operationDate =
    invoice.operation_date && invoice.operation_date !== invoice.issue_date
      ? { FechaOperacion: aeatDate(invoice.operation_date) }
      : {};
  // Simplified invoices (F2) and their corrections (R5) carry no recipient block: AEAT's
  // validations reject Destinatarios on them, even when the invoice names a customer.
  const recipients =
    invoice.customer && TipoFactura !== "F2" && TipoFactura !== "R5"
      ? { Destinatarios: [recipient(invoice.customer)] }
      : {};

  return {
    IDVersion: "1.0",
    IDFactura,
    NombreRazonEmisor: clip(invoice.issuer.name, 120),
    TipoFactura,
    ...corrective,
    ...operationDate,
    DescripcionOperacion: clip(invoice.lines.map((l) => l.description.trim()).join("; "), 500),
    ...recipients,
    Desglose: details,
    CuotaTotal,
    ImporteTotal,
    Encadenamiento: previous
      ? { RegistroAnterior: { ...previous.IDFactura, Huella: previous.Huella } }
      : { PrimerRegistro: "S" },
    SistemaInformatico: options.software ?? SOFTWARE,
    FechaHoraHusoGenRegistro,
    TipoHuella: "01",
    Huella: await recordHash({
      ...IDFactura,
      TipoFactura,
      CuotaTotal,
      ImporteTotal,
      Huella: previous?.Huella ?? "",
      FechaHoraHusoGenRegistro,
    }),
  };
}
