// A local stand-in for AEAT's VERI*FACTU service (and its census check), for bench/pipeline.mjs
// and bench/simulate-registration.mjs's calibration. It answers RegFactuSistemaFacturacion as
// AEAT does (RespuestaRegFactuSistemaFacturacion with TiempoEsperaEnvio, one RespuestaLinea per
// record, Correcto; a record it already holds comes back as 3000 with RegistroDuplicado), and it
// checks what AEAT's flow control asks of a sender (verifactu-facts.md §6; Orden HAC/1177/2024
// art. 16.2): at most 1,000 records a request, one request at a time per issuer NIF, and the
// next request only once the previous answer's TiempoEsperaEnvio has passed since the previous
// send, unless it carries 1,000 records. It also checks each issuer's chain as it arrives: every
// record must name the hash of the record received just before it (or be the first).
// Violations are counted, never refused, so a bench run reports them instead of hanging.
import { createServer } from "node:http";

const PREFIX = "(?:[A-Za-z_][\\w.-]*:)?";
/** The raw content of every element named `local` (any namespace prefix), in document order. */
const elements = (xml, local) =>
  [
    ...xml.matchAll(
      new RegExp(`<${PREFIX}${local}(?:\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</${PREFIX}${local}\\s*>)`, "g"),
    ),
  ].map((m) => m[1] ?? "");
const text = (xml, local) => elements(xml, local)[0]?.trim();

const NS_R =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd";
const NS_I =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd";
const envelope = (body) =>
  `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Header/><env:Body>${body}</env:Body></env:Envelope>`;

/** One record of a request: its invoice, its operation, its own hash and the one it chains to. */
function readRecord(xml) {
  const [alta] = elements(xml, "RegistroAlta");
  const record = alta ?? elements(xml, "RegistroAnulacion")[0] ?? "";
  const [id = ""] = elements(record, "IDFactura");
  const suffix = alta === undefined ? "Anulada" : "";
  const [previous] = elements(record, "RegistroAnterior");
  const hashes = elements(record, "Huella");
  return {
    operation: alta === undefined ? "Anulacion" : "Alta",
    nif: text(id, `IDEmisorFactura${suffix}`),
    number: text(id, `NumSerieFactura${suffix}`),
    date: text(id, `FechaExpedicionFactura${suffix}`),
    first: previous === undefined,
    previousHash: previous === undefined ? null : text(previous, "Huella"),
    hash: hashes.at(-1)?.trim(),
  };
}

/** Whether invoice number `b` comes after `a` in its series ("INV-9999" < "INV-10000"). */
function rising(a, b) {
  const [, prefixA, digitsA] = /^(.*?)(\d+)$/.exec(a) ?? [];
  const [, prefixB, digitsB] = /^(.*?)(\d+)$/.exec(b) ?? [];
  if (prefixA === undefined || prefixA !== prefixB) return b > a;
  return Number(digitsB) > Number(digitsA);
}

const line = (r, state, duplicate) =>
  `<tikR:RespuestaLinea><tikR:IDFactura><tik:IDEmisorFactura>${r.nif}</tik:IDEmisorFactura><tik:NumSerieFactura>${r.number}</tik:NumSerieFactura><tik:FechaExpedicionFactura>${r.date}</tik:FechaExpedicionFactura></tikR:IDFactura><tikR:Operacion><tik:TipoOperacion>${r.operation}</tik:TipoOperacion></tikR:Operacion><tikR:EstadoRegistro>${state}</tikR:EstadoRegistro>${
    duplicate
      ? "<tikR:CodigoErrorRegistro>3000</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>Registro de facturación duplicado.</tikR:DescripcionErrorRegistro><tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>1</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>Correcta</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>"
      : ""
  }</tikR:RespuestaLinea>`;

/**
 * Starts the stand-in on 127.0.0.1:`port`. `waitSeconds`: the TiempoEsperaEnvio it answers;
 * `latencyMs`: how long it takes to answer a request. Returns `{ stats, close }`: `stats.requests`
 * (one entry per registration request: issuer, records, received and answered times in ms),
 * `stats.records` (NumSerieFactura → the time its request arrived), and the violations.
 */
export async function startStandin({ port, waitSeconds = 60, latencyMs = 0 }) {
  const stats = {
    requests: [],
    records: new Map(),
    census: 0,
    violations: { tooMany: 0, concurrent: 0, early: 0 },
    chain: { breaks: 0, numberInversions: 0, duplicates: 0 },
  };
  const issuers = new Map(); // nif → { inFlight, lastSend, lastWait, lastHash, lastNumber, held: Set }
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const send = (xml) => res.writeHead(200, { "content-type": "text/xml; charset=utf-8" }).end(xml);
      if (body.includes("VNifV2Ent")) {
        stats.census++;
        const nif = text(body, "Nif") ?? "";
        send(
          envelope(
            `<VNifV2Sal:VNifV2Sal xmlns:VNifV2Sal="urn:standin"><VNifV2Sal:Contribuyente><VNifV2Sal:Nif>${nif}</VNifV2Sal:Nif><VNifV2Sal:Nombre>STANDIN</VNifV2Sal:Nombre><VNifV2Sal:Resultado>IDENTIFICADO</VNifV2Sal:Resultado></VNifV2Sal:Contribuyente></VNifV2Sal:VNifV2Sal>`,
          ),
        );
        return;
      }
      const at = Date.now();
      const [cabecera = ""] = elements(body, "Cabecera");
      const nif = text(cabecera, "NIF") ?? "";
      const records = elements(body, "RegistroFactura").map(readRecord);
      const issuer = issuers.get(nif) ?? {
        inFlight: 0,
        lastSend: null,
        lastWait: 0,
        lastHash: null,
        lastNumber: null,
        held: new Set(),
      };
      issuers.set(nif, issuer);
      if (records.length > 1000) stats.violations.tooMany++;
      if (issuer.inFlight > 0) stats.violations.concurrent++;
      if (issuer.lastSend !== null && at - issuer.lastSend < issuer.lastWait * 1000 && records.length < 1000)
        stats.violations.early++;
      issuer.inFlight++;
      issuer.lastSend = at;
      const states = records.map((r) => {
        const key = `${r.number}|${r.date}|${r.operation}`;
        if (issuer.held.has(key)) {
          stats.chain.duplicates++;
          return "duplicate";
        }
        issuer.held.add(key);
        // The chain as AEAT receives it: each record names the last one received before it.
        if (r.first ? issuer.lastHash !== null : r.previousHash !== issuer.lastHash) stats.chain.breaks++;
        if (r.operation === "Alta" && issuer.lastNumber !== null && !rising(issuer.lastNumber, r.number))
          stats.chain.numberInversions++;
        if (r.operation === "Alta") issuer.lastNumber = r.number;
        issuer.lastHash = r.hash;
        if (!stats.records.has(r.number)) stats.records.set(r.number, at);
        return "new";
      });
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      issuer.inFlight--;
      issuer.lastWait = waitSeconds;
      const answered = Date.now();
      stats.requests.push({ nif, records: records.length, at, answered });
      const lines = records.map((r, i) =>
        states[i] === "duplicate" ? line(r, "Incorrecto", true) : line(r, "Correcto", false),
      );
      send(
        envelope(
          `<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${NS_R}" xmlns:tik="${NS_I}"><tikR:CSV>A-STANDIN${String(stats.requests.length).padStart(7, "0")}</tikR:CSV><tikR:DatosPresentacion><tik:NIFPresentador>${nif}</tik:NIFPresentador><tik:TimestampPresentacion>${new Date(answered).toISOString().slice(0, 19)}+00:00</tik:TimestampPresentacion></tikR:DatosPresentacion><tikR:Cabecera><tik:ObligadoEmision><tik:NIF>${nif}</tik:NIF></tik:ObligadoEmision></tikR:Cabecera><tikR:TiempoEsperaEnvio>${waitSeconds}</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>Correcto</tikR:EstadoEnvio>${lines.join("")}</tikR:RespuestaRegFactuSistemaFacturacion>`,
        ),
      );
    });
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return { stats, close: () => server.close() };
}
