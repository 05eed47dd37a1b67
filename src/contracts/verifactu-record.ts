/**
 * A VERI*FACTU registration record (`RegistroAlta` of AEAT's SuministroInformacion.xsd). Keys are
 * the XSD's element names so that the record, its hash and its XML read alike; `xml.ts` writes
 * them in the XSD's order, whatever the order of the keys here.
 */

/** An invoice's identity: issuer NIF, series and number, issue date `DD-MM-YYYY`. */
export interface IdFactura {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
}

/** L7: 02 NIF-IVA, 03 passport, 04 official document of the country of residence, 05, 06, 07 not registered. */
export type IdType = "02" | "03" | "04" | "05" | "06" | "07";

export interface IdOtro {
  CodigoPais: string;
  IDType: IdType;
  ID: string;
}

/** A recipient: a Spanish NIF, or another identification. */
export type Destinatario = { NombreRazon: string } & ({ NIF: string } | { IDOtro: IdOtro });

/** F1 invoice, F2 simplified, R1–R5 corrective (F3, substitution of simplified invoices, is not issued). */
export type TipoFactura = "F1" | "F2" | "R1" | "R2" | "R3" | "R4" | "R5";

/** L9: S1 subject, S2 subject with reverse charge, N1/N2 not subject. */
export type CalificacionOperacion = "S1" | "S2" | "N1" | "N2";
/** L10: exempt under LIVA arts. 20 (E1), 21 (E2), 22 (E3), 23–24 (E4), 25 (E5), other (E6). */
export type OperacionExenta = "E1" | "E2" | "E3" | "E4" | "E5" | "E6";

/** One `DetalleDesglose`: a qualification (or exemption), its base and quotas. Amounts as written. */
export type DetalleDesglose = {
  /** 01: IVA. */
  Impuesto: "01";
  /** L8A: 01 general, 02 export; 18 (recargo regime) only in records stored before issue 28. */
  ClaveRegimen: "01" | "02" | "18";
  TipoImpositivo?: string;
  BaseImponibleOimporteNoSujeto: string;
  CuotaRepercutida?: string;
  TipoRecargoEquivalencia?: string;
  CuotaRecargoEquivalencia?: string;
} & ({ CalificacionOperacion: CalificacionOperacion } | { OperacionExenta: OperacionExenta });

export type Encadenamiento = { PrimerRegistro: "S" } | { RegistroAnterior: IdFactura & { Huella: string } };

/** The invoicing software that produced the record (`SistemaInformaticoType`). */
export interface SistemaInformatico {
  NombreRazon: string;
  NIF: string;
  NombreSistemaInformatico: string;
  IdSistemaInformatico: string;
  Version: string;
  NumeroInstalacion: string;
  TipoUsoPosibleSoloVerifactu: "S" | "N";
  TipoUsoPosibleMultiOT: "S" | "N";
  IndicadorMultiplesOT: "S" | "N";
}

export interface RegistroAlta {
  IDVersion: "1.0";
  IDFactura: IdFactura;
  NombreRazonEmisor: string;
  /** `S`: a subsanación, a new record of an invoice already recorded (verifactu-facts.md §9). */
  Subsanacion?: "S";
  /**
   * With `Subsanacion`: `X` when AEAT holds no record of the invoice (every earlier one was
   * rejected), `S` when it holds one and the latest subsanación was rejected.
   */
  RechazoPrevio?: "X" | "S";
  TipoFactura: TipoFactura;
  /** `I`: a corrective invoice by differences, the only kind this service issues. */
  TipoRectificativa?: "I";
  FacturasRectificadas?: IdFactura[];
  FechaOperacion?: string;
  DescripcionOperacion: string;
  /** `S`: an F1 issued as a simplified invoice naming its recipient (RD 1619/2012 art. 7.2, 7.3). */
  FacturaSimplificadaArt7273?: "S";
  /** `S`: |ImporteTotal| of 100,000,000.00 EUR or more (AEAT error 1139 without it). */
  Macrodato?: "S";
  Destinatarios?: Destinatario[];
  Desglose: DetalleDesglose[];
  CuotaTotal: string;
  ImporteTotal: string;
  Encadenamiento: Encadenamiento;
  SistemaInformatico: SistemaInformatico;
  /** ISO 8601 with the offset, in Spanish peninsular time: `2026-11-23T10:00:00+01:00`. */
  FechaHoraHusoGenRegistro: string;
  /** 01: SHA-256. */
  TipoHuella: "01";
  Huella: string;
}

/** A cancellation record (`RegistroAnulacion`): which invoice, and the chain. */
export interface RegistroAnulacion {
  IDVersion: "1.0";
  IDFactura: {
    IDEmisorFacturaAnulada: string;
    NumSerieFacturaAnulada: string;
    FechaExpedicionFacturaAnulada: string;
  };
  /** `S`: AEAT holds no registration of the invoice (none was accepted). Set when it is sent. */
  SinRegistroPrevio?: "S";
  Encadenamiento: Encadenamiento;
  SistemaInformatico: SistemaInformatico;
  FechaHoraHusoGenRegistro: string;
  TipoHuella: "01";
  Huella: string;
}

type Unsealed<R> = Omit<R, "Encadenamiento" | "FechaHoraHusoGenRegistro" | "TipoHuella" | "Huella">;
/** A record before it joins the chain: everything but the link, the generation time and the hash. */
export type RecordBody = Unsealed<RegistroAlta>;
export type AnulacionBody = Unsealed<RegistroAnulacion>;
/** A sealed record of either kind. */
export type ChainRecord = RegistroAlta | RegistroAnulacion;
/** A `verifactu_records` row's record: as generated, then as sealed and sent. */
export type StoredRecord = RecordBody | AnulacionBody | ChainRecord;

export const isAnulacion = (r: StoredRecord): r is AnulacionBody | RegistroAnulacion =>
  "IDEmisorFacturaAnulada" in r.IDFactura;

/** The issuer, number and date of any record, as its chain's next record names it. */
export function recordId(r: StoredRecord): IdFactura {
  if (!isAnulacion(r)) return r.IDFactura;
  const id = r.IDFactura;
  return {
    IDEmisorFactura: id.IDEmisorFacturaAnulada,
    NumSerieFactura: id.NumSerieFacturaAnulada,
    FechaExpedicionFactura: id.FechaExpedicionFacturaAnulada,
  };
}

/**
 * One record as the invoice shows it (`verifactu.records`), kept on the invoice row. Times are
 * ISO 8601 UTC; `registered_at` is AEAT's presentation time as it gave it.
 */
export interface RecordSummary {
  id: string;
  kind: "registration" | "subsanacion" | "cancellation";
  status: "pending" | "accepted" | "accepted_with_errors" | "rejected";
  hash: string | null;
  previous_hash: string | null;
  generated_at: string;
  submitted_at: string | null;
  csv: string | null;
  registered_at: string | null;
  errors: RegistrationError[];
}

/** One of the registry's errors on a record: its code and text, as AEAT gave them. */
export type RegistrationError = { code: string; message: string };

/**
 * How the deployment's certificate files for an account (verifactu-system.md §4): the account
 * is the operator itself, has registered the operator as its representative (apoderamiento),
 * or the operator files as a colaborador social.
 */
export interface Representation {
  type: "own_certificate" | "apoderamiento" | "colaboracion_social";
  granted_on: string;
  reference: string;
}
