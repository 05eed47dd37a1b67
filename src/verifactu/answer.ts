import { codeToken } from "../aeat/http";
import { elements, text } from "../aeat/soap";
import {
  type ChainRecord,
  type IdFactura,
  isAnulacion,
  type RegistrationError,
  recordId,
} from "../contracts/verifactu-record";
import type { RecordOutcome, SubmissionAnswer } from "./registry";

// Reading AEAT's answer to RegFactuSistemaFacturacion: RespuestaRegFactuSistemaFacturacion of
// RespuestaSuministro.xsd (CSV?, DatosPresentacion?, Cabecera, TiempoEsperaEnvio, EstadoEnvio,
// RespuestaLinea 0..1000 of IDFactura, Operacion, RefExterna?, EstadoRegistro,
// CodigoErrorRegistro?, DescripcionErrorRegistro?, RegistroDuplicado?) and the
// RegistroDuplicadoType and EstadoRegistroSFType of SuministroInformacion.xsd. The XSD is AEAT's
// as copied in invopop/gobl.verifactu test/schema/RespuestaSuministro.xsd (the other two in
// test/fixtures/verifactu-xsd); code 3000 is AEAT's errores.properties as copied in the same
// repository (commit 8504cb4). See test/fixtures/verifactu/SOURCE.md.

/**
 * The wait when the answer names none. The XSD makes TiempoEsperaEnvio required (`\d{0,4}`, so
 * possibly empty); 60 s is the default AEAT's flow control is described with, not confirmed here.
 */
export const DEFAULT_WAIT_SECONDS = 60;
/** "Registro de facturación duplicado.": a record with this IDFactura is already registered. */
export const DUPLICATE_CODE = "3000";

const SENT_STATES = new Set(["Correcto", "ParcialmenteCorrecto", "Incorrecto"]);
const MAX_MESSAGE = 500;

export const unavailable = (reason: string): SubmissionAnswer => ({
  kind: "unavailable",
  reason: `aeat:${reason}`,
});

/** The key a record and its line share: issuer NIF, series and number, issue date. */
export const keyOf = (id: IdFactura) =>
  JSON.stringify([id.IDEmisorFactura.trim(), id.NumSerieFactura.trim(), id.FechaExpedicionFactura.trim()]);

/** AEAT's text on one line, control characters and runs of whitespace made one space, capped. */
function oneLine(raw: string | undefined): string {
  const line = (raw ?? "").replace(/[\s\u0000-\u001F\u007F]+/g, " ").trim();
  return Array.from(line).slice(0, MAX_MESSAGE).join("");
}

function errorsOf(xml: string): RegistrationError[] {
  const code = codeToken(text(xml, "CodigoErrorRegistro"), /^-?\d{1,9}$/);
  return code === undefined ? [] : [{ code, message: oneLine(text(xml, "DescripcionErrorRegistro")) }];
}

/**
 * A duplicate is a record AEAT already holds, typically ours from a send whose answer was
 * lost: the outcome is that of the stored record. Without RegistroDuplicado (the XSD says AEAT
 * sends it) it is taken as registered. `Anulada`: the stored registration was cancelled, so a
 * registration sent again is not registered.
 */
function duplicateOutcome(stored: string | undefined, errors: RegistrationError[]): RecordOutcome | null {
  const state = stored === undefined ? "Correcta" : text(stored, "EstadoRegistroDuplicado");
  if (state === "Correcta") return { status: "accepted", errors: [] };
  if (state === "AceptadaConErrores")
    return { status: "accepted_with_errors", errors: errorsOf(stored ?? "") };
  if (state === "Anulada") return { status: "rejected", errors };
  return null;
}

/** "El registro de facturación ya ha sido dado de baja.": the invoice is already cancelled. */
export const ALREADY_CANCELLED_CODE = "3001";

/** One RespuestaLinea as an outcome; null when its state is not one AEAT documents. */
function lineOutcome(line: string, operation: string): RecordOutcome | null {
  // RegistroDuplicado comes last and repeats CodigoErrorRegistro: read the line's own fields before it.
  const cut = line.search(/<(?:[A-Za-z_][\w.-]*:)?RegistroDuplicado[\s/>]/);
  const own = cut === -1 ? line : line.slice(0, cut);
  const errors = errorsOf(own);
  const state = text(own, "EstadoRegistro");
  if (state === "Correcto") return { status: "accepted", errors };
  if (state === "AceptadoConErrores") return { status: "accepted_with_errors", errors };
  if (state !== "Incorrecto") return null;
  // A cancellation AEAT already holds is ours, from a request whose answer was lost.
  if (operation === "Anulacion" && errors[0]?.code === ALREADY_CANCELLED_CODE)
    return { status: "accepted", errors: [] };
  if (operation === "Alta" && errors[0]?.code === DUPLICATE_CODE)
    return duplicateOutcome(cut === -1 ? undefined : line.slice(cut), errors);
  return { status: "rejected", errors };
}

function faultReason(fault: string): string {
  // AEAT writes its own code first in faultstring ("Codigo[4102].El XML no cumple…"); the rest
  // may quote the request, so only the code or the SOAP faultcode is kept.
  const aeatCode = /^\s*Codigo\[(-?\d{1,9})\]/.exec(text(fault, "faultstring") ?? "")?.[1];
  const code = aeatCode ?? codeToken(text(fault, "faultcode"), /^[\w.:-]{1,40}$/);
  return code ? `soap_fault:${code}` : "soap_fault";
}

/**
 * AEAT's answer to the request that carried `records`, as one outcome per record in their
 * order. Lines are matched to records by IDFactura, never by position; a line about a record
 * not sent (or a cancellation) is ignored. A record without a line, two lines for one record,
 * a state AEAT does not document, a fault, a non-2xx status or an unreadable body: the whole
 * answer is `unavailable` and every record is sent again. That is harmless, because a record
 * AEAT already registered comes back as a duplicate and counts as registered.
 */
export function readAnswer(status: number, body: string, records: readonly ChainRecord[]): SubmissionAnswer {
  if (status === 429) return unavailable("http_429");
  // A fault normally comes with 500 (SOAP 1.1); public clients report 200 and 403 too.
  const [fault] = elements(body, "Fault");
  if (fault !== undefined) return unavailable(faultReason(fault));
  if (status < 200 || status >= 300) return unavailable(`http_${status}`);
  const [answer] = elements(body, "RespuestaRegFactuSistemaFacturacion");
  if (answer === undefined || !SENT_STATES.has(text(answer, "EstadoEnvio") ?? "")) {
    return unavailable("unexpected_body");
  }
  const wait = text(answer, "TiempoEsperaEnvio") ?? "";
  const waitSeconds = /^\d{1,4}$/.test(wait) ? Number(wait) : DEFAULT_WAIT_SECONDS;

  const byId = new Map<string, RecordOutcome & { operation: string }>();
  for (const line of elements(answer, "RespuestaLinea")) {
    const operation = text(line, "TipoOperacion") ?? "Alta";
    const [id = ""] = elements(line, "IDFactura");
    const key = keyOf({
      IDEmisorFactura: text(id, "IDEmisorFactura") ?? "",
      NumSerieFactura: text(id, "NumSerieFactura") ?? "",
      FechaExpedicionFactura: text(id, "FechaExpedicionFactura") ?? "",
    });
    const outcome = lineOutcome(line, operation);
    if (outcome === null) return unavailable("unexpected_body");
    if (byId.has(key)) return unavailable("ambiguous_line");
    byId.set(key, { ...outcome, operation });
  }
  const outcomes: RecordOutcome[] = [];
  for (const record of records) {
    const line = byId.get(keyOf(recordId(record)));
    // A request never carries two records of one invoice (submit.ts): the key and the
    // operation name the line.
    if (line === undefined || line.operation !== (isAnulacion(record) ? "Anulacion" : "Alta")) {
      return unavailable("missing_line");
    }
    outcomes.push({ status: line.status, errors: line.errors });
  }
  // The receipt, given when not everything was rejected: kept per accepted record. AEAT's CSVs
  // carry a hyphen ("A-86U4KHPACUMVZE" in test/fixtures/verifactu/aeat-correcto.xml).
  const csv = codeToken(text(answer, "CSV"), /^[A-Za-z0-9-]{1,64}$/) ?? null;
  const [presentation = ""] = elements(answer, "DatosPresentacion");
  const registeredAt = codeToken(text(presentation, "TimestampPresentacion"), /^[\d:.T+Z-]{10,35}$/) ?? null;
  return { kind: "answered", outcomes, waitSeconds, csv, registeredAt };
}
