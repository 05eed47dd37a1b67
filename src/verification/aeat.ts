import { type CertificateBinding, codeToken, type FetchLike, postText } from "../aeat/http";
import { elements, text } from "../aeat/soap";
import { checkSpanishNif } from "../tax-ids/es-nif";
import type { Registry, RegistryAnswer, RegistryQuery } from "./registry";
import { registryText } from "./text";

// AEAT's census check "Calidad de datos identificativos" (VNifV2, SOAP 1.1, document/literal).
// Endpoint, namespaces, element names and soapAction "" are those of a third-party copy of the
// WSDL and XSDs (javiermartingonzalez/facturascripts-plugin-validaNIF, Lib/ValidaNIF/Wsdl/);
// the result values and what an empty name does are those of public clients (invopop/gobl.tin
// aeat/aeat.go and its tests). NOT checked against AEAT's own WSDL or technical manual, which
// this project has no copy of. See test/fixtures/registries/README.md.

/** The census endpoint for a personal or representative certificate. */
export const AEAT_VNIF_URL = "https://www1.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP";
/** The census endpoint for a seal certificate ("certificado de sello"). */
export const AEAT_VNIF_SEAL_URL = "https://www10.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP";
export const AEAT_TIMEOUT_MS = 10_000;

const ENT_NS =
  "http://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/burt/jdit/ws/VNifV2Ent.xsd";

// Results, upper-cased without spaces (AEAT writes "Identificado", "No identificado -similar").
// BAJA (deregistered) and REVOCADO (NIF revoked) are read as invalid: the NIF no longer
// identifies an active taxpayer, as VIES answers for a deregistered number (our reading; AEAT
// does not say what "valid" means). NO IDENTIFICADO-SIMILAR is about a name, and we send none:
// for an entity it is unexpected, so it is no verdict.
const VERDICTS: Readonly<Record<string, boolean>> = {
  IDENTIFICADO: true,
  NOIDENTIFICADO: false,
  "IDENTIFICADO-BAJA": false,
  "IDENTIFICADO-REVOCADO": false,
  "NOIDENTIFICADO-REVOCADO": false,
};

const unavailable = (reason: string): RegistryAnswer => ({ kind: "unavailable", reason: `aeat:${reason}` });

/**
 * Whether the census can identify `nif` from the NIF alone. It identifies an entity (a
 * company's NIF, the former CIF) by its NIF, but a natural person (DNI, NIE, K/L/M) only by NIF
 * and name together, and a Tax ID carries no name: public clients send an empty name for
 * entities and refuse to ask for a person without one (invopop/gobl.tin aeat.go).
 */
export function censusIdentifiesByNif(nif: string): boolean {
  const check = checkSpanishNif(nif);
  return check.ok && check.kind === "entity";
}

function envelope(nif: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:vnif="${ENT_NS}">` +
    "<soapenv:Header/><soapenv:Body><vnif:VNifV2Ent><vnif:Contribuyente>" +
    `<vnif:Nif>${nif}</vnif:Nif><vnif:Nombre></vnif:Nombre>` +
    "</vnif:Contribuyente></vnif:VNifV2Ent></soapenv:Body></soapenv:Envelope>"
  );
}

function readAnswer(status: number, body: string, nif: string): RegistryAnswer {
  if (status === 429) return unavailable("http_429");
  // A fault comes with 500 (SOAP 1.1) or, some clients report, with 200. Client or server
  // fault, it says nothing about the NIF.
  const [fault] = elements(body, "Fault");
  if (fault !== undefined) {
    const code = codeToken(text(fault, "faultcode") ?? text(fault, "Value"), /^[\w.:-]{1,40}$/);
    return unavailable(code ? `soap_fault:${code}` : "soap_fault");
  }
  if (status < 200 || status >= 300) return unavailable(`http_${status}`);
  const [output] = elements(body, "VNifV2Sal");
  const rows = output === undefined ? [] : elements(output, "Contribuyente");
  if (rows.length !== 1) return unavailable("unexpected_body");
  const row = rows[0]!;
  // AEAT may answer with the entity's current NIF when it changed (gobl.tin): that says
  // nothing certain about the one we hold. An empty echo is taken as ours.
  const echoed = (text(row, "Nif") ?? "").toUpperCase();
  if (echoed !== "" && echoed !== nif) return unavailable("other_nif");
  const verdict = (text(row, "Resultado") ?? "").toUpperCase().replace(/\s+/g, "");
  if (!Object.hasOwn(VERDICTS, verdict)) return unavailable("unexpected_result");
  const valid = VERDICTS[verdict]!;
  // With an empty name sent, the name in an IDENTIFICADO answer is the registered one.
  return { kind: "result", valid, name: valid ? registryText(text(row, "Nombre")) : null, address: null };
}

/**
 * The AEAT census registry for `es_nif` Tax IDs of entities. `certificate` is the deployment's
 * mTLS binding; `url` the census endpoint (`AEAT_VNIF_URL`, or `AEAT_VNIF_SEAL_URL` for a seal
 * certificate). A natural person's NIF is never sent (`aeat:name_required`, see
 * `censusIdentifiesByNif`). Faults, non-2xx, network errors, timeouts and unreadable answers
 * are `unavailable`.
 *
 * @example
 * await aeatRegistry(env.AEAT_CERT, AEAT_VNIF_URL).check({ country: "ES", type: "es_nif", value: "B85905495" }, 1);
 * // { kind: "result", valid: true, name: "INVOPOP SL", address: null }
 */
export function aeatRegistry(
  certificate: CertificateBinding,
  url: string = AEAT_VNIF_URL,
  { timeoutMs = AEAT_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Registry {
  // The certificate must never be presented to anything but AEAT over TLS.
  if (!url.startsWith("https://")) throw new Error("aeatRegistry: the census endpoint must be an https URL");
  const fetcher: FetchLike = (target, init) => certificate.fetch(target, init);
  return {
    async check(query: RegistryQuery) {
      const nif = query.value;
      if (query.type !== "es_nif" || !checkSpanishNif(nif).ok) return unavailable("query_malformed");
      if (!censusIdentifiesByNif(nif)) return unavailable("name_required");
      // SOAP 1.1 wants the header; the WSDL copy declares soapAction="".
      const headers = { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '""' };
      const answer = await postText(fetcher, url, headers, envelope(nif), timeoutMs);
      return answer.ok ? readAnswer(answer.status, answer.body, nif) : unavailable(answer.reason);
    },
  };
}
