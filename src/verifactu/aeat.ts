import type { CertificateBinding } from "../aeat/http";
import { type FetchLike, postText } from "../aeat/http";
import { type ChainRecord, recordId } from "../contracts/verifactu-record";
import { keyOf, readAnswer, unavailable } from "./answer";
import { type Issuer, MAX_RECORDS_PER_REQUEST, type RecordRegistry } from "./registry";
import { regFactuXml, XML_DECLARATION } from "./xml";

// AEAT's VERI*FACTU registration service (SOAP 1.1, document/literal, operation
// RegFactuSistemaFacturacion of service sfVerifactu). Endpoints, the four ports and
// soapAction="" are those of AEAT's SistemaFacturacion.wsdl as copied in invopop/gobl.verifactu
// test/schema/SistemaFacturacion.wsdl (commit 8e7e7f6); the same hosts are in
// josemmo/Verifactu-PHP src/Services/AeatClient.php and mdiago/VeriFactu
// NetCore/Src/VeriFactuEndPointPrefixes.cs. NOT checked against AEAT's own site, which this
// project cannot reach. See test/fixtures/verifactu/SOURCE.md.

const PATH = "/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP";
/** Production, personal or representative certificate (WSDL port SistemaVerifactu). */
export const AEAT_VERIFACTU_URL = `https://www1.agenciatributaria.gob.es${PATH}`;
/** Production, seal certificate ("certificado de sello", port SistemaVerifactuSello). */
export const AEAT_VERIFACTU_SEAL_URL = `https://www10.agenciatributaria.gob.es${PATH}`;
/** Pre-production ("entorno de pruebas", port SistemaVerifactuPruebas). */
export const AEAT_VERIFACTU_PRE_URL = `https://prewww1.aeat.es${PATH}`;
/** Pre-production with a seal certificate (port SistemaVerifactuSelloPruebas). */
export const AEAT_VERIFACTU_PRE_SEAL_URL = `https://prewww10.aeat.es${PATH}`;

/**
 * Longer than the census check's 10 s: a request carries up to 1,000 records, and public
 * clients allow 30 s. A timeout is no verdict: the records are sent again, and any AEAT did
 * register come back as duplicates, which count as registered.
 */
export const AEAT_VERIFACTU_TIMEOUT_MS = 30_000;

const SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/";
// SOAP 1.1 wants the SOAPAction header; the WSDL declares soapAction="" for the operation.
const HEADERS = { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '""' };

/** The SOAP envelope whose Body is exactly `regFactuXml(issuer, records)`. */
export function soapRequest(issuer: Issuer, records: readonly ChainRecord[]): string {
  return (
    `${XML_DECLARATION}<soapenv:Envelope xmlns:soapenv="${SOAP_NS}"><soapenv:Header/><soapenv:Body>` +
    regFactuXml(issuer, records) +
    "</soapenv:Body></soapenv:Envelope>"
  );
}

/** What AEAT would refuse for the whole request, or answer ambiguously: a caller's mistake. */
function checkBatch(issuer: Issuer, records: readonly ChainRecord[]): void {
  if (records.length < 1 || records.length > MAX_RECORDS_PER_REQUEST) {
    throw new RangeError(`a request carries 1 to ${MAX_RECORDS_PER_REQUEST} records, not ${records.length}`);
  }
  // AEAT code 1108: IDEmisorFactura must be the NIF of the Cabecera's ObligadoEmision.
  if (records.some((r) => recordId(r).IDEmisorFactura !== issuer.nif)) {
    throw new RangeError("every record of a request must be of the request's issuer");
  }
  // Answers are matched by IDFactura: two records with one IDFactura could not be told apart.
  if (new Set(records.map((r) => keyOf(recordId(r)))).size !== records.length) {
    throw new RangeError("two records of a request share an IDFactura");
  }
}

/**
 * The Live registry: AEAT's VERI*FACTU service reached through the deployment's mTLS
 * certificate binding. `url` is one of the endpoints above (the certificate decides between
 * www1 and www10). Submits one request and reads its answer (answer.ts); pacing between
 * requests (`waitSeconds`) and batching are the caller's.
 *
 * @example
 * await aeatRecordRegistry(env.AEAT_CERT, AEAT_VERIFACTU_URL).submit({ name: "Acme SL", nif: "B12345674" }, records);
 * // { kind: "answered", outcomes: [{ status: "accepted", errors: [] }], waitSeconds: 60 }
 */
export function aeatRecordRegistry(
  certificate: CertificateBinding,
  url: string,
  { timeoutMs = AEAT_VERIFACTU_TIMEOUT_MS }: { timeoutMs?: number } = {},
): RecordRegistry {
  // The certificate must never be presented to anything but AEAT over TLS.
  if (!url.startsWith("https://")) throw new Error("aeatRecordRegistry: the endpoint must be an https URL");
  const fetcher: FetchLike = (target, init) => certificate.fetch(target, init);
  return {
    name: "aeat",
    async submit(issuer, records) {
      checkBatch(issuer, records);
      const answer = await postText(fetcher, url, HEADERS, soapRequest(issuer, records), timeoutMs);
      return answer.ok ? readAnswer(answer.status, answer.body, records) : unavailable(answer.reason);
    },
  };
}
