import { aeatDate } from "./format";

/**
 * The URL of the VERI*FACTU QR code (AEAT, "Características del QR y especificaciones del
 * servicio de cotejo"): AEAT's ValidarQR service with the issuer's NIF, the invoice number, its
 * issue date `DD-MM-YYYY` and `ImporteTotal`. Test mode points at the pre-production host so
 * that a Test invoice is never checked against production.
 */

const HOSTS = {
  live: "https://www2.agenciatributaria.gob.es",
  test: "https://prewww2.aeat.es",
} as const;

export interface QrInput {
  /** The issuer's NIF (`IDEmisorFactura`). */
  nif: string;
  /** The invoice number (`NumSerieFactura`). */
  number: string;
  /** The issue date, `YYYY-MM-DD`. */
  date: string;
  /** `ImporteTotal`, two decimals and a `.`. */
  total: string;
  live: boolean;
}

/**
 * Values are percent-encoded as UTF-8 (`encodeURIComponent`: `/` → `%2F`, space → `%20`, `ñ` → `%C3%B1`).
 *
 * @example
 * qrUrl({ nif: "89890001K", number: "12345678/G33", date: "2024-01-01", total: "241.40", live: false });
 * // "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%2FG33&fecha=01-01-2024&importe=241.40"
 */
export function qrUrl({ nif, number, date, total, live }: QrInput): string {
  const params = [
    ["nif", nif],
    ["numserie", number],
    ["fecha", aeatDate(date)],
    ["importe", total],
  ] as const;
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v.trim())}`).join("&");
  return `${HOSTS[live ? "live" : "test"]}/wlpl/TIKE-CONT/ValidarQR?${query}`;
}
