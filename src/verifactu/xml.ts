import {
  type ChainRecord,
  type Destinatario,
  type DetalleDesglose,
  type Encadenamiento,
  type IdFactura,
  isAnulacion,
  type RegistroAlta,
  type RegistroAnulacion,
  recordId,
  type SistemaInformatico,
} from "../contracts/verifactu-record";
import { el, type XmlNode } from "../lib/xml";
import type { Issuer } from "./registry";

/**
 * The `RegFactuSistemaFacturacion` document (SuministroLR.xsd) that carries registration
 * records to AEAT: a `Cabecera` naming the issuer, then one `RegistroFactura` per record.
 * Elements are written in the XSD's order with two prefixes, `sfLR` for SuministroLR.xsd and
 * `sf` for SuministroInformacion.xsd; no whitespace between elements, so a record's bytes
 * depend only on the record and the client (aeat.ts) sends what `GET …/verifactu-record` shows.
 */

const BASE =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws";
export const NS_LR = `${BASE}/SuministroLR.xsd`;
export const NS_SF = `${BASE}/SuministroInformacion.xsd`;

export { escapeText } from "../lib/xml";

/** `<sf:name>…</sf:name>`, or nothing when the value is undefined (an optional element left out). */
const sf = (name: string, value: string | readonly XmlNode[] | undefined) => el(`sf:${name}`, value);

const idFactura = (id: IdFactura) => [
  sf("IDEmisorFactura", id.IDEmisorFactura),
  sf("NumSerieFactura", id.NumSerieFactura),
  sf("FechaExpedicionFactura", id.FechaExpedicionFactura),
];

const destinatario = (d: Destinatario) => [
  sf("NombreRazon", d.NombreRazon),
  "NIF" in d
    ? sf("NIF", d.NIF)
    : sf("IDOtro", [
        sf("CodigoPais", d.IDOtro.CodigoPais),
        sf("IDType", d.IDOtro.IDType),
        sf("ID", d.IDOtro.ID),
      ]),
];

const detalle = (d: DetalleDesglose) =>
  sf("DetalleDesglose", [
    sf("Impuesto", d.Impuesto),
    sf("ClaveRegimen", d.ClaveRegimen),
    "CalificacionOperacion" in d
      ? sf("CalificacionOperacion", d.CalificacionOperacion)
      : sf("OperacionExenta", d.OperacionExenta),
    sf("TipoImpositivo", d.TipoImpositivo),
    sf("BaseImponibleOimporteNoSujeto", d.BaseImponibleOimporteNoSujeto),
    sf("CuotaRepercutida", d.CuotaRepercutida),
    sf("TipoRecargoEquivalencia", d.TipoRecargoEquivalencia),
    sf("CuotaRecargoEquivalencia", d.CuotaRecargoEquivalencia),
  ]);

const sistema = (s: SistemaInformatico) => [
  sf("NombreRazon", s.NombreRazon),
  sf("NIF", s.NIF),
  sf("NombreSistemaInformatico", s.NombreSistemaInformatico),
  sf("IdSistemaInformatico", s.IdSistemaInformatico),
  sf("Version", s.Version),
  sf("NumeroInstalacion", s.NumeroInstalacion),
  sf("TipoUsoPosibleSoloVerifactu", s.TipoUsoPosibleSoloVerifactu),
  sf("TipoUsoPosibleMultiOT", s.TipoUsoPosibleMultiOT),
  sf("IndicadorMultiplesOT", s.IndicadorMultiplesOT),
];

const encadenamiento = (e: Encadenamiento) =>
  sf("Encadenamiento", [
    "PrimerRegistro" in e
      ? sf("PrimerRegistro", e.PrimerRegistro)
      : sf("RegistroAnterior", [...idFactura(e.RegistroAnterior), sf("Huella", e.RegistroAnterior.Huella)]),
  ]);

/** What sealing added to a record of either kind: its link, its software, its time and hash (both XSDs end so). */
const sealed = (r: ChainRecord) => [
  encadenamiento(r.Encadenamiento),
  sf("SistemaInformatico", sistema(r.SistemaInformatico)),
  sf("FechaHoraHusoGenRegistro", r.FechaHoraHusoGenRegistro),
  sf("TipoHuella", r.TipoHuella),
  sf("Huella", r.Huella),
];

/** The `RegistroAlta` element alone. */
export function registroAltaXml(r: RegistroAlta): string {
  return sf("RegistroAlta", [
    sf("IDVersion", r.IDVersion),
    sf("IDFactura", idFactura(r.IDFactura)),
    sf("NombreRazonEmisor", r.NombreRazonEmisor),
    sf("Subsanacion", r.Subsanacion),
    sf("RechazoPrevio", r.RechazoPrevio),
    sf("TipoFactura", r.TipoFactura),
    sf("TipoRectificativa", r.TipoRectificativa),
    r.FacturasRectificadas &&
      sf(
        "FacturasRectificadas",
        r.FacturasRectificadas.map((f) => sf("IDFacturaRectificada", idFactura(f))),
      ),
    sf("FechaOperacion", r.FechaOperacion),
    sf("DescripcionOperacion", r.DescripcionOperacion),
    sf("FacturaSimplificadaArt7273", r.FacturaSimplificadaArt7273),
    sf("Macrodato", r.Macrodato),
    r.Destinatarios &&
      sf(
        "Destinatarios",
        r.Destinatarios.map((d) => sf("IDDestinatario", destinatario(d))),
      ),
    sf("Desglose", r.Desglose.map(detalle)),
    sf("CuotaTotal", r.CuotaTotal),
    sf("ImporteTotal", r.ImporteTotal),
    ...sealed(r),
  ]);
}

/** The `RegistroAnulacion` element alone. */
export function registroAnulacionXml(r: RegistroAnulacion): string {
  return sf("RegistroAnulacion", [
    sf("IDVersion", r.IDVersion),
    sf("IDFactura", [
      sf("IDEmisorFacturaAnulada", r.IDFactura.IDEmisorFacturaAnulada),
      sf("NumSerieFacturaAnulada", r.IDFactura.NumSerieFacturaAnulada),
      sf("FechaExpedicionFacturaAnulada", r.IDFactura.FechaExpedicionFacturaAnulada),
    ]),
    sf("SinRegistroPrevio", r.SinRegistroPrevio),
    ...sealed(r),
  ]);
}

const recordXml = (r: ChainRecord) => (isAnulacion(r) ? registroAnulacionXml(r) : registroAltaXml(r));

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * `RegFactuSistemaFacturacion` for `issuer` and its records in the order given, without the XML
 * declaration: what the SOAP request's Body holds. Each record is `registroAltaXml`'s bytes.
 */
export function regFactuXml(issuer: Issuer, records: readonly ChainRecord[]): string {
  const person = (p: { name: string; nif: string }) => [sf("NombreRazon", p.name), sf("NIF", p.nif)];
  const cabecera = el("sfLR:Cabecera", [
    sf("ObligadoEmision", person(issuer)),
    issuer.representative ? sf("Representante", person(issuer.representative)) : undefined,
    issuer.incident ? sf("RemisionVoluntaria", [sf("Incidencia", "S")]) : undefined,
  ]);
  return (
    `<sfLR:RegFactuSistemaFacturacion xmlns:sfLR="${NS_LR}" xmlns:sf="${NS_SF}">` +
    cabecera +
    records.map((record) => el("sfLR:RegistroFactura", [recordXml(record)])).join("") +
    "</sfLR:RegFactuSistemaFacturacion>"
  );
}

/**
 * The whole document for one record, UTF-8, its issuer the record's NIF and `name` (a
 * registration's own, by default; a cancellation names none).
 *
 * @example
 * registrationXml(record); // '<?xml version="1.0" encoding="UTF-8"?><sfLR:RegFactuSistemaFacturacion …'
 */
export function registrationXml(
  record: ChainRecord,
  name = isAnulacion(record) ? "" : record.NombreRazonEmisor,
): string {
  return XML_DECLARATION + regFactuXml({ name, nif: recordId(record).IDEmisorFactura }, [record]);
}
