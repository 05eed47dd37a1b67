import { sha256Hex } from "../lib/crypto";

/**
 * The record hash ("huella") of AEAT's "Detalle de las especificaciones técnicas para generación
 * de la huella o hash de los registros de facturación": SHA-256 of the UTF-8 `name=value&…`
 * string, values trimmed, as 64 uppercase hex characters. `Huella` is the previous record's
 * hash, empty for the first record of a chain. Amounts and dates must be passed exactly as the
 * record's XML writes them, since AEAT recomputes the hash from the XML.
 */

export interface AltaHashFields {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
  TipoFactura: string;
  CuotaTotal: string;
  ImporteTotal: string;
  /** The previous record's `Huella`; "" for the first record. */
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

export interface AnulacionHashFields {
  IDEmisorFacturaAnulada: string;
  NumSerieFacturaAnulada: string;
  FechaExpedicionFacturaAnulada: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

/** The exact string AEAT hashes: the fields in the specification's order. */
export function hashInput(fields: AltaHashFields | AnulacionHashFields): string {
  const order =
    "IDEmisorFactura" in fields
      ? ([
          "IDEmisorFactura",
          "NumSerieFactura",
          "FechaExpedicionFactura",
          "TipoFactura",
          "CuotaTotal",
          "ImporteTotal",
          "Huella",
          "FechaHoraHusoGenRegistro",
        ] as const)
      : ([
          "IDEmisorFacturaAnulada",
          "NumSerieFacturaAnulada",
          "FechaExpedicionFacturaAnulada",
          "Huella",
          "FechaHoraHusoGenRegistro",
        ] as const);
  const values = fields as unknown as Record<string, string>;
  return order.map((name) => `${name}=${(values[name] ?? "").trim()}`).join("&");
}

/**
 * The `Huella` of a registration record (RegistroAlta).
 *
 * @example
 * await recordHash({ IDEmisorFactura: "89890001K", NumSerieFactura: "12345678/G33",
 *   FechaExpedicionFactura: "01-01-2024", TipoFactura: "F1", CuotaTotal: "12.35",
 *   ImporteTotal: "123.45", Huella: "", FechaHoraHusoGenRegistro: "2024-01-01T19:20:30+01:00" });
 * // "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60"
 */
export async function recordHash(fields: AltaHashFields): Promise<string> {
  return (await sha256Hex(hashInput(fields))).toUpperCase();
}

/** The `Huella` of a cancellation record (RegistroAnulacion). */
export async function cancellationHash(fields: AnulacionHashFields): Promise<string> {
  return (await sha256Hex(hashInput(fields))).toUpperCase();
}
