import { beforeAll, describe, expect, it } from "vitest";
import {
  type ChainRecord,
  type RegistroAlta,
  type RegistroAnulacion,
  recordId,
} from "../../src/contracts/verifactu-record";
import {
  AEAT_VERIFACTU_PRE_SEAL_URL,
  AEAT_VERIFACTU_PRE_URL,
  AEAT_VERIFACTU_SEAL_URL,
  AEAT_VERIFACTU_URL,
  aeatRecordRegistry,
} from "../../src/verifactu/aeat";
import { cancellationBody, sealCancellation } from "../../src/verifactu/record";
import { type Issuer, MAX_RECORDS_PER_REQUEST, type SubmissionAnswer } from "../../src/verifactu/registry";
import {
  escapeText,
  regFactuXml,
  registrationXml,
  registroAltaXml,
  registroAnulacionXml,
  XML_DECLARATION,
} from "../../src/verifactu/xml";
import answerCorrect from "../fixtures/verifactu/aeat-correcto.xml?raw";
import aeatFault from "../fixtures/verifactu/aeat-fault.xml?raw";
import answerIncorrect from "../fixtures/verifactu/aeat-incorrecto.xml?raw";
import { esInvoice, GENERATED_AT, ISSUER, iva, line } from "../fixtures/verifactu-invoices";
import { registrationRecord } from "../helpers/verifactu-record";

// The AEAT VERI*FACTU client driven through its real code; only the network is fake: the
// mTLS certificate binding's `fetch`, which records what it is sent and answers canned bodies.
// Answers are AEAT's shape as recorded in test/fixtures/verifactu (SOURCE.md says where from);
// the variants below swap in our issuer, other lines and other values, and say so.

type Sent = { url: string; init: RequestInit };

function binding(respond: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const certificate = {
    fetch: async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return respond({ url, init });
    },
  };
  return { certificate, sent };
}

const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "Content-Type": "text/xml;charset=UTF-8" } });

const NIF = ISSUER.tax_id!.value;
const issuer: Issuer = { name: ISSUER.name, nif: NIF };

/** Three records of one chain, as the consumer sends them: TEST-202510-123, -124, -125. */
let records: RegistroAlta[];
beforeAll(async () => {
  records = [];
  let previous: RegistroAlta | null = null;
  for (const number of ["TEST-202510-123", "TEST-202510-124", "TEST-202510-125"]) {
    const invoice = esInvoice({
      number,
      issue_date: "2025-10-13",
      lines: [line("1", "100", iva("general"))],
    });
    const chain = previous && { IDFactura: previous.IDFactura, Huella: previous.Huella };
    previous = await registrationRecord(invoice, { previous: chain, generatedAt: GENERATED_AT });
    records.push(previous);
  }
});

/** The cancellation of the invoice `id` names, chained after `after` (the chain's latest record). */
async function cancellation(
  id: { NumSerieFactura: string; FechaExpedicionFactura: string },
  after: ChainRecord,
): Promise<RegistroAnulacion> {
  return sealCancellation(cancellationBody({ IDEmisorFactura: NIF, ...id }), {
    previous: { IDFactura: recordId(after), Huella: after.Huella },
    generatedAt: GENERATED_AT + 60_000,
  });
}

/** The receipt of AEAT's recorded Correcto answer (aeat-correcto.xml): its CSV and presentation time. */
const RECEIPT = { csv: "A-86U4KHPACUMVZE", registeredAt: "2025-10-13T12:34:56+02:00" };

// The recorded answer with its lines replaced (and its NIF made ours): everything else as AEAT sent it.
const LINE_OPEN = "<tikR:RespuestaLinea>";
const LINE_CLOSE = "</tikR:RespuestaLinea>";
const HEAD = answerCorrect.slice(0, answerCorrect.indexOf(LINE_OPEN));
const TAIL = answerCorrect.slice(answerCorrect.lastIndexOf(LINE_CLOSE) + LINE_CLOSE.length);

/**
 * `receipt: false` takes out CSV and DatosPresentacion, as AEAT does when every record was
 * rejected (RespuestaSuministro.xsd has both optional; aeat-incorrecto.xml has neither).
 */
function answer(
  lines: string[],
  { envio = "ParcialmenteCorrecto", wait = "60", receipt = true } = {},
): string {
  const head = receipt
    ? HEAD
    : HEAD.replace(/<tikR:CSV>[\s\S]*?<\/tikR:CSV>\s*/, "").replace(
        /<tikR:DatosPresentacion>[\s\S]*?<\/tikR:DatosPresentacion>\s*/,
        "",
      );
  return (head + lines.join("") + TAIL)
    .replaceAll("A00000000", NIF)
    .replace("<tikR:EstadoEnvio>Correcto<", `<tikR:EstadoEnvio>${envio}<`)
    .replace("<tikR:TiempoEsperaEnvio>60<", `<tikR:TiempoEsperaEnvio>${wait}<`);
}

/** A line about `record`: AEAT echoes a cancellation's IDFactura as IDEmisorFactura… too. */
function respuestaLinea(
  record: ChainRecord,
  estado: string,
  extra = "",
  operacion = "IDEmisorFacturaAnulada" in record.IDFactura ? "Anulacion" : "Alta",
): string {
  const id = recordId(record);
  return (
    `${LINE_OPEN}<tikR:IDFactura><tik:IDEmisorFactura>${id.IDEmisorFactura}</tik:IDEmisorFactura>` +
    `<tik:NumSerieFactura>${escapeText(id.NumSerieFactura)}</tik:NumSerieFactura>` +
    `<tik:FechaExpedicionFactura>${id.FechaExpedicionFactura}</tik:FechaExpedicionFactura></tikR:IDFactura>` +
    `<tikR:Operacion><tik:TipoOperacion>${operacion}</tik:TipoOperacion></tikR:Operacion>` +
    `<tikR:EstadoRegistro>${estado}</tikR:EstadoRegistro>${extra}${LINE_CLOSE}`
  );
}

// Codes and texts from AEAT's errores.properties (SOURCE.md).
const error = (code: number, description: string, prefix = "tikR") =>
  `<${prefix}:CodigoErrorRegistro>${code}</${prefix}:CodigoErrorRegistro>` +
  `<${prefix}:DescripcionErrorRegistro>${description}</${prefix}:DescripcionErrorRegistro>`;
const REJECTED = error(1100, "Valor o tipo incorrecto del campo.");
const WITH_ERRORS = error(
  2001,
  "El NIF del bloque Destinatarios no está identificado en el censo de la AEAT.",
);
const duplicate = (estado: string, stored = "") =>
  `${error(3000, "Registro de facturación duplicado.")}<tikR:RegistroDuplicado>` +
  `<tik:IdPeticionRegistroDuplicado>202510131234567</tik:IdPeticionRegistroDuplicado>` +
  `<tik:EstadoRegistroDuplicado>${estado}</tik:EstadoRegistroDuplicado>${stored}</tikR:RegistroDuplicado>`;

async function submit(body: string, status = 200, sent: readonly ChainRecord[] = records) {
  const { certificate } = binding(() => xml(body, status));
  return aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, sent);
}

/** The reason is stored and logged: a short token, never text from the answer. */
function expectUnavailable(answer: SubmissionAnswer, reason: string) {
  expect(answer, JSON.stringify(answer)).toEqual({ kind: "unavailable", reason });
  expect(reason).toMatch(/^aeat:[\w.:-]{1,60}$/);
}

/**
 * Well-formedness without an XML parser (workerd has none): after the declaration, one root
 * element, every tag closed in order, attributes quoted, text without a bare `<` or `&`.
 */
function expectWellFormed(document: string) {
  expect(document.startsWith(XML_DECLARATION)).toBe(true);
  const rest = document.slice(XML_DECLARATION.length);
  const token =
    /<(\/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[A-Za-z_][\w.:-]*="[^"<&]*")*)\s*(\/?)>|[^<]+/y;
  const reference = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/g;
  const open: string[] = [];
  let roots = 0;
  for (let at = 0; at < rest.length; at = token.lastIndex) {
    token.lastIndex = at;
    const match = token.exec(rest);
    if (match === null) throw new Error(`unreadable markup at ${at}: ${rest.slice(at, at + 40)}`);
    const [whole, closing, name, , selfClosing] = match;
    if (name === undefined) {
      expect(open.length, `text outside the root: ${whole}`).toBeGreaterThan(0);
      expect(whole.replace(reference, "")).not.toContain("&");
    } else if (closing) {
      expect(open.pop(), `</${name}> closes another element`).toBe(name);
    } else {
      if (open.length === 0) roots++;
      if (!selfClosing) open.push(name);
    }
  }
  expect(open).toEqual([]);
  expect(roots).toBe(1);
}

describe("AEAT VERI*FACTU client: the request", () => {
  it("the endpoints are the WSDL's: www1/www10 in production, prewww1/prewww10 in pre-production (10 = seal certificate)", () => {
    const path = "/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP";
    expect(AEAT_VERIFACTU_URL).toBe(`https://www1.agenciatributaria.gob.es${path}`);
    expect(AEAT_VERIFACTU_SEAL_URL).toBe(`https://www10.agenciatributaria.gob.es${path}`);
    expect(AEAT_VERIFACTU_PRE_URL).toBe(`https://prewww1.aeat.es${path}`);
    expect(AEAT_VERIFACTU_PRE_SEAL_URL).toBe(`https://prewww10.aeat.es${path}`);
  });

  it('POSTs through the certificate binding to the URL given, as SOAP 1.1: text/xml and SOAPAction "" (the WSDL\'s)', async () => {
    const { certificate, sent } = binding(() =>
      xml(answer(records.map((r) => respuestaLinea(r, "Correcto")))),
    );
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_PRE_URL);
    expect(registry.name).toBe("aeat");
    await registry.submit(issuer, records);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(AEAT_VERIFACTU_PRE_URL);
    expect(sent[0]!.init.method).toBe("POST");
    const headers = new Headers(sent[0]!.init.headers);
    expect(headers.get("Content-Type")).toBe("text/xml; charset=utf-8");
    expect(headers.get("SOAPAction")).toBe('""');
    expect(sent[0]!.init.redirect).toBe("manual");
    expect(sent[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("the body is a well-formed SOAP 1.1 envelope whose Body is exactly the RegFactuSistemaFacturacion of xml.ts", async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, records);
    const body = String(sent[0]!.init.body);
    expectWellFormed(body);
    // The check itself catches what it claims to (the records carry "Cliente & Hijos <S.A.>").
    expect(() => expectWellFormed(`${XML_DECLARATION}<a><b></a></b>`)).toThrow();
    expect(() => expectWellFormed(`${XML_DECLARATION}<a>Cliente & Hijos</a>`)).toThrow();
    expect(() => expectWellFormed(`${XML_DECLARATION}<a/><b/>`)).toThrow();
    expect(body).toContain("Cliente &amp; Hijos &lt;S.A.&gt;");
    expect(body).toBe(
      `${XML_DECLARATION}<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">` +
        `<soapenv:Header/><soapenv:Body>${regFactuXml(issuer, records)}</soapenv:Body></soapenv:Envelope>`,
    );
    expect(body).toContain(
      `<sfLR:Cabecera><sf:ObligadoEmision><sf:NombreRazon>${escapeText(ISSUER.name)}</sf:NombreRazon>` +
        `<sf:NIF>${NIF}</sf:NIF></sf:ObligadoEmision></sfLR:Cabecera>`,
    );
  });

  it("each record travels as the exact bytes of registroAltaXml, one RegistroFactura each, in the order given", async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, records);
    const body = String(sent[0]!.init.body);
    const positions = records.map((r) =>
      body.indexOf(`<sfLR:RegistroFactura>${registroAltaXml(r)}</sfLR:RegistroFactura>`),
    );
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(body.match(/<sfLR:RegistroFactura>/g)).toHaveLength(records.length);
  });

  it("one record is sent as the very document GET …/verifactu-record shows (registrationXml without its declaration)", async () => {
    const record = records[0]!;
    const { certificate, sent } = binding(() => xml(answer([])));
    await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(
      { name: record.NombreRazonEmisor, nif: record.IDFactura.IDEmisorFactura },
      [record],
    );
    const document = registrationXml(record).slice(XML_DECLARATION.length);
    expect(String(sent[0]!.init.body)).toContain(`<soapenv:Body>${document}</soapenv:Body>`);
  });

  it("registrationXml is the declaration and regFactuXml of the record's own issuer and that record", () => {
    const record = records[1]!;
    expect(registrationXml(record)).toBe(
      XML_DECLARATION +
        regFactuXml({ name: record.NombreRazonEmisor, nif: record.IDFactura.IDEmisorFactura }, [record]),
    );
  });

  it(`1 to ${MAX_RECORDS_PER_REQUEST} records a request: more (or none) is a RangeError and nothing is sent (the caller batches)`, async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL);
    const many = Array.from({ length: MAX_RECORDS_PER_REQUEST + 1 }, () => records[0]!);
    await expect(registry.submit(issuer, many)).rejects.toThrow(RangeError);
    await expect(registry.submit(issuer, [])).rejects.toThrow(RangeError);
    expect(sent).toHaveLength(0);
  });

  it("a record of another issuer than the request's Cabecera is a RangeError (AEAT would reject it, code 1108)", async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL);
    await expect(registry.submit({ name: "Other SL", nif: "A85905490" }, records)).rejects.toThrow(
      RangeError,
    );
    expect(sent).toHaveLength(0);
  });

  it("two records with one IDFactura in a request are a RangeError: their lines could not be told apart", async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL);
    await expect(registry.submit(issuer, [records[0]!, records[0]!])).rejects.toThrow(RangeError);
    expect(sent).toHaveLength(0);
  });

  it("the Cabecera carries Representante and RemisionVoluntaria/Incidencia S when the issuer says so, in the XSD's order", async () => {
    const { certificate, sent } = binding(() => xml(answer([])));
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL);
    const representative = { name: "Asesoría Gómez & Asociados SL", nif: "A85905490" };
    await registry.submit({ ...issuer, representative, incident: true }, records);
    await registry.submit({ ...issuer, representative }, records);
    await registry.submit({ ...issuer, incident: true }, records);
    await registry.submit({ ...issuer, representative: null, incident: false }, records);
    const cabecera = (i: number) =>
      /<sfLR:Cabecera>.*?<\/sfLR:Cabecera>/.exec(String(sent[i]!.init.body))?.[0];
    // CabeceraType: ObligadoEmision, Representante?, RemisionVoluntaria? (FechaFinVeriFactu?, Incidencia?).
    const obligado = `<sf:ObligadoEmision><sf:NombreRazon>${escapeText(ISSUER.name)}</sf:NombreRazon><sf:NIF>${NIF}</sf:NIF></sf:ObligadoEmision>`;
    const representante =
      "<sf:Representante><sf:NombreRazon>Asesoría Gómez &amp; Asociados SL</sf:NombreRazon>" +
      "<sf:NIF>A85905490</sf:NIF></sf:Representante>";
    const remision = "<sf:RemisionVoluntaria><sf:Incidencia>S</sf:Incidencia></sf:RemisionVoluntaria>";
    expect(cabecera(0)).toBe(`<sfLR:Cabecera>${obligado}${representante}${remision}</sfLR:Cabecera>`);
    expect(cabecera(1)).toBe(`<sfLR:Cabecera>${obligado}${representante}</sfLR:Cabecera>`);
    expect(cabecera(2)).toBe(`<sfLR:Cabecera>${obligado}${remision}</sfLR:Cabecera>`);
    expect(cabecera(3)).toBe(`<sfLR:Cabecera>${obligado}</sfLR:Cabecera>`);
    for (const { init } of sent) expectWellFormed(String(init.body));
  });

  it("a cancellation travels as the exact bytes of registroAnulacionXml, after the registrations sent with it", async () => {
    const anulacion = await cancellation(
      { NumSerieFactura: "TEST-202510-120", FechaExpedicionFactura: "11-10-2025" },
      records[2]!,
    );
    const { certificate, sent } = binding(() => xml(answer([])));
    await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, [...records, anulacion]);
    const body = String(sent[0]!.init.body);
    expectWellFormed(body);
    const at = body.indexOf(
      `<sfLR:RegistroFactura>${registroAnulacionXml(anulacion)}</sfLR:RegistroFactura>`,
    );
    expect(at).toBeGreaterThan(body.indexOf(registroAltaXml(records[2]!)));
    expect(body.match(/<sfLR:RegistroFactura>/g)).toHaveLength(4);
  });

  it("the certificate is only ever presented over https", () => {
    const { certificate } = binding(() => xml(answer([])));
    expect(() => aeatRecordRegistry(certificate, "http://prewww1.aeat.es/x")).toThrow();
  });
});

describe("AEAT VERI*FACTU client: answers", () => {
  it("all accepted: AEAT's recorded Correcto answer, a cancellation line for a record not sent ignored", async () => {
    const sent = records.slice(0, 2);
    const body = answerCorrect.replaceAll("A00000000", NIF);
    expect(await submit(body, 200, sent)).toEqual({
      kind: "answered",
      outcomes: [
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
      ],
      waitSeconds: 60,
      ...RECEIPT,
    });
  });

  it("partially accepted: each line matched by IDFactura, not by position, whatever order AEAT gives", async () => {
    const [first, second, third] = records as [RegistroAlta, RegistroAlta, RegistroAlta];
    const body = answer([
      respuestaLinea(third, "Correcto"),
      respuestaLinea(first, "Incorrecto", REJECTED),
      respuestaLinea(second, "AceptadoConErrores", WITH_ERRORS),
    ]);
    expect(await submit(body)).toEqual({
      kind: "answered",
      outcomes: [
        { status: "rejected", errors: [{ code: "1100", message: "Valor o tipo incorrecto del campo." }] },
        {
          status: "accepted_with_errors",
          errors: [
            {
              code: "2001",
              message: "El NIF del bloque Destinatarios no está identificado en el censo de la AEAT.",
            },
          ],
        },
        { status: "accepted", errors: [] },
      ],
      waitSeconds: 60,
      ...RECEIPT,
    });
  });

  it("the request's receipt is read: CSV and DatosPresentacion/TimestampPresentacion (AEAT's recorded answer)", async () => {
    const result = await submit(answerCorrect.replaceAll("A00000000", NIF), 200, records.slice(0, 2));
    expect(result).toMatchObject({ kind: "answered", ...RECEIPT });
  });

  it("an answer where every record was rejected has no CSV nor DatosPresentacion: both null", async () => {
    const body = answer(
      records.map((r) => respuestaLinea(r, "Incorrecto", REJECTED)),
      { envio: "Incorrecto", receipt: false },
    );
    expect(body).not.toContain("CSV");
    expect(await submit(body)).toEqual({
      kind: "answered",
      outcomes: records.map(() => ({
        status: "rejected",
        errors: [{ code: "1100", message: "Valor o tipo incorrecto del campo." }],
      })),
      waitSeconds: 60,
      csv: null,
      registeredAt: null,
    });
  });

  it("AEAT's recorded Incorrecto answer: the cancellation of an invoice it does not hold (3002) is rejected, without a receipt", async () => {
    const [first] = records as [RegistroAlta];
    const anulacion = await cancellation(
      { NumSerieFactura: "NO-EXISTE", FechaExpedicionFactura: "11-10-2025" },
      first,
    );
    expect(await submit(answerIncorrect.replaceAll("A00000000", NIF), 200, [anulacion])).toEqual({
      kind: "answered",
      outcomes: [
        { status: "rejected", errors: [{ code: "3002", message: "No existe el registro de facturación." }] },
      ],
      waitSeconds: 60,
      csv: null,
      registeredAt: null,
    });
  });

  it("an Anulacion line is matched to the cancellation record sent (AEAT's recorded Correcto answer, all three lines)", async () => {
    const [first, second] = records as [RegistroAlta, RegistroAlta];
    const anulacion = await cancellation(
      { NumSerieFactura: "TEST-202510-120", FechaExpedicionFactura: "11-10-2025" },
      second,
    );
    const body = answerCorrect.replaceAll("A00000000", NIF);
    expect(await submit(body, 200, [first, second, anulacion])).toEqual({
      kind: "answered",
      outcomes: [
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
      ],
      waitSeconds: 60,
      ...RECEIPT,
    });
  });

  it("a cancellation refused with 3001 (already cancelled) is accepted: ours, from a request whose answer was lost", async () => {
    const anulacion = await cancellation(records[0]!.IDFactura, records[2]!);
    const body = answer([
      respuestaLinea(records[1]!, "Correcto"),
      respuestaLinea(
        anulacion,
        "Incorrecto",
        error(3001, "El registro de facturación ya ha sido dado de baja."),
      ),
    ]);
    expect(await submit(body, 200, [records[1]!, anulacion])).toMatchObject({
      kind: "answered",
      outcomes: [
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
      ],
    });
  });

  it("a registration refused with 3001 is rejected: only a cancellation is taken as already done", async () => {
    const body = answer([
      respuestaLinea(
        records[0]!,
        "Incorrecto",
        error(3001, "El registro de facturación ya ha sido dado de baja."),
      ),
    ]);
    expect(await submit(body, 200, [records[0]!])).toMatchObject({
      kind: "answered",
      outcomes: [{ status: "rejected", errors: [{ code: "3001" }] }],
    });
  });

  it("a duplicate (3000, already registered as Correcta) counts as accepted: a resend after a lost answer is harmless", async () => {
    const body = answer([
      respuestaLinea(records[0]!, "Incorrecto", duplicate("Correcta")),
      respuestaLinea(records[1]!, "Correcto"),
      respuestaLinea(records[2]!, "Incorrecto", error(3000, "Registro de facturación duplicado.")),
    ]);
    const result = await submit(body);
    expect(result).toMatchObject({
      kind: "answered",
      outcomes: [
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
        { status: "accepted", errors: [] },
      ],
    });
  });

  it("a duplicate of a record registered with errors is accepted_with_errors, with the stored record's error", async () => {
    const stored = error(
      2001,
      "El NIF del bloque Destinatarios no está identificado en el censo de la AEAT.",
      "tik",
    );
    const body = answer(
      records.map((r) => respuestaLinea(r, "Incorrecto", duplicate("AceptadaConErrores", stored))),
    );
    const result = await submit(body);
    expect(result.kind).toBe("answered");
    if (result.kind !== "answered") return;
    expect(result.outcomes[0]).toEqual({
      status: "accepted_with_errors",
      errors: [
        {
          code: "2001",
          message: "El NIF del bloque Destinatarios no está identificado en el censo de la AEAT.",
        },
      ],
    });
  });

  it("a duplicate of a cancelled record (Anulada) is rejected: the invoice is not registered", async () => {
    const body = answer(records.map((r) => respuestaLinea(r, "Incorrecto", duplicate("Anulada"))));
    const result = await submit(body);
    expect(result).toMatchObject({
      kind: "answered",
      outcomes: records.map(() => ({
        status: "rejected",
        errors: [{ code: "3000", message: "Registro de facturación duplicado." }],
      })),
    });
  });

  it.each([
    ["120", 120],
    ["0", 0],
    ["9999", 9999],
  ])("TiempoEsperaEnvio %s is the wait before the next request, in seconds", async (wait, seconds) => {
    const body = answer(
      records.map((r) => respuestaLinea(r, "Correcto")),
      { envio: "Correcto", wait },
    );
    expect(await submit(body)).toMatchObject({ kind: "answered", waitSeconds: seconds });
  });

  it.each([
    ["absent", (body: string) => body.replace(/<tikR:TiempoEsperaEnvio>60<\/tikR:TiempoEsperaEnvio>/, "")],
    ["empty", (body: string) => body.replace("<tikR:TiempoEsperaEnvio>60<", "<tikR:TiempoEsperaEnvio><")],
    [
      "not a number",
      (body: string) => body.replace("<tikR:TiempoEsperaEnvio>60<", "<tikR:TiempoEsperaEnvio>-5<"),
    ],
  ])("TiempoEsperaEnvio %s: 60 seconds, AEAT's default", async (_, edit) => {
    const body = edit(answer(records.map((r) => respuestaLinea(r, "Correcto")).reverse(), { wait: "60" }));
    expect(await submit(body)).toMatchObject({ kind: "answered", waitSeconds: 60 });
  });

  it("texts are decoded and made one line: entities resolved, whitespace collapsed", async () => {
    const messy = error(1100, "  Valor &lt;incorrecto&gt;\n   del campo &amp; más  ");
    const body = answer(records.map((r) => respuestaLinea(r, "Incorrecto", messy)));
    const result = await submit(body);
    expect(result.kind === "answered" && result.outcomes[0]).toEqual({
      status: "rejected",
      errors: [{ code: "1100", message: "Valor <incorrecto> del campo & más" }],
    });
  });

  it("an invoice number with XML special characters is matched as AEAT echoes it (escaped)", async () => {
    const invoice = esInvoice({
      number: "A&B<1>",
      issue_date: "2025-10-13",
      lines: [line("1", "1", iva("general"))],
    });
    const odd = await registrationRecord(invoice, { previous: null, generatedAt: GENERATED_AT });
    const body = answer([respuestaLinea(odd, "AceptadoConErrores", WITH_ERRORS)]);
    expect(await submit(body, 200, [odd])).toMatchObject({
      kind: "answered",
      outcomes: [{ status: "accepted_with_errors" }],
    });
  });
});

describe("AEAT VERI*FACTU client: unavailable (nothing judged, the records are sent again)", () => {
  it("a SOAP fault (AEAT's recorded env:Server, HTTP 500) is unavailable with AEAT's code only", async () => {
    expectUnavailable(await submit(aeatFault, 500), "aeat:soap_fault:20009");
  });

  it("a whole-request rejection (Codigo[4102], env:Client) is unavailable, whatever the HTTP status", async () => {
    const body = aeatFault
      .replace("env:Server", "env:Client")
      .replace(
        "Codigo[20009].Error interno en el servidor",
        "Codigo[4102].El XML no cumple el esquema. Falta informar campo obligatorio.: NIF 12345678Z",
      );
    for (const status of [500, 200, 403]) {
      const result = await submit(body, status);
      expectUnavailable(result, "aeat:soap_fault:4102");
      expect(JSON.stringify(result)).not.toContain("12345678Z");
    }
  });

  it("a certificate that may not file for the issuer (Codigo[4112], env:Client) is unavailable with code 4112", async () => {
    const body = aeatFault
      .replace("env:Server", "env:Client")
      .replace(
        "Codigo[20009].Error interno en el servidor",
        "Codigo[4112].El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.",
      );
    const result = await submit(body, 500);
    expectUnavailable(result, "aeat:soap_fault:4112");
    expect(JSON.stringify(result)).not.toContain("titular");
  });

  it("a fault without AEAT's code is reported by its faultcode, never by its text", async () => {
    const body = aeatFault.replace(
      "Codigo[20009].Error interno en el servidor",
      "Juan Español: certificado revocado",
    );
    const result = await submit(body, 500);
    expectUnavailable(result, "aeat:soap_fault:env:Server");
    expect(JSON.stringify(result)).not.toContain("Juan");
  });

  it.each([500, 502, 503, 429, 401])("HTTP %i without a SOAP answer is unavailable", async (status) => {
    expectUnavailable(
      await submit("<html><body>Service Unavailable</body></html>", status),
      `aeat:http_${status}`,
    );
  });

  it("HTTP 500 with a well-formed answer inside is still unavailable", async () => {
    const body = answer(records.map((r) => respuestaLinea(r, "Correcto")));
    expectUnavailable(await submit(body, 500), "aeat:http_500");
  });

  it("a redirect is unavailable, not followed", async () => {
    const { certificate, sent } = binding(
      () => new Response(null, { status: 302, headers: { Location: "/x" } }),
    );
    const result = await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, records);
    expectUnavailable(result, "aeat:http_302");
    expect(sent).toHaveLength(1);
  });

  it("a network error (the binding's fetch throws) is unavailable", async () => {
    const certificate = {
      fetch: async () => {
        throw new TypeError("Network connection lost.");
      },
    };
    const result = await aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL).submit(issuer, records);
    expectUnavailable(result, "aeat:network_error");
  });

  it("a timeout is unavailable: a binding that never answers is cut off and its request aborted", async () => {
    let signal: AbortSignal | undefined;
    const certificate = {
      fetch: (_url: string, init: RequestInit) => {
        signal = init.signal ?? undefined;
        return new Promise<Response>(() => {});
      },
    };
    const started = Date.now();
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL, { timeoutMs: 20 });
    expectUnavailable(await registry.submit(issuer, records), "aeat:timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(signal?.aborted).toBe(true);
  });

  it("the timeout also covers a body that never finishes", async () => {
    const certificate = {
      fetch: async () => new Response(new ReadableStream({ start() {} }), { status: 200 }),
    };
    const registry = aeatRecordRegistry(certificate, AEAT_VERIFACTU_URL, { timeoutMs: 20 });
    expectUnavailable(await registry.submit(issuer, records), "aeat:timeout");
  });

  it.each([
    ["an empty body", ""],
    ["an HTML maintenance page", "<html><body>Mantenimiento</body></html>"],
    ["a cut-off answer", answerCorrect.slice(0, answerCorrect.indexOf("<tikR:EstadoEnvio>") + 10)],
    ["an unknown EstadoEnvio", answer([], { envio: "Pendiente" })],
  ])("garbage is unavailable: %s", async (_, body) => {
    expectUnavailable(await submit(body), "aeat:unexpected_body");
  });

  it("an unknown EstadoRegistro makes the whole answer unavailable, never a guess", async () => {
    const body = answer([
      respuestaLinea(records[0]!, "Correcto"),
      respuestaLinea(records[1]!, "Pendiente"),
      respuestaLinea(records[2]!, "Correcto"),
    ]);
    expectUnavailable(await submit(body), "aeat:unexpected_body");
  });

  it("a record without a line (AEAT's recorded Incorrecto answer is about another invoice) is not judged: unavailable", async () => {
    expectUnavailable(await submit(answerIncorrect.replaceAll("A00000000", NIF)), "aeat:missing_line");
    const partial = answer([
      respuestaLinea(records[0]!, "Correcto"),
      respuestaLinea(records[2]!, "Correcto"),
    ]);
    expectUnavailable(await submit(partial), "aeat:missing_line");
  });

  it("a line for the right number but another issue date is not that record's line", async () => {
    const other = (r: RegistroAlta) =>
      respuestaLinea(r, "Correcto").replace(`>${r.IDFactura.FechaExpedicionFactura}<`, `>14-10-2025<`);
    expectUnavailable(await submit(answer(records.map(other))), "aeat:missing_line");
  });

  it("an Alta line for a record sent as a cancellation is not its line: unavailable", async () => {
    const anulacion = await cancellation(records[0]!.IDFactura, records[2]!);
    const body = answer([
      respuestaLinea(records[1]!, "Correcto"),
      respuestaLinea(anulacion, "Correcto", "", "Alta"),
    ]);
    expectUnavailable(await submit(body, 200, [records[1]!, anulacion]), "aeat:missing_line");
  });

  it("an Anulacion line for a record sent as a registration is not its line: unavailable", async () => {
    const body = answer(
      records.map((r, i) => respuestaLinea(r, "Correcto", "", i === 1 ? "Anulacion" : "Alta")),
    );
    expectUnavailable(await submit(body), "aeat:missing_line");
  });

  it("two lines for one record are unavailable, never a guess", async () => {
    const body = answer([
      ...records.map((r) => respuestaLinea(r, "Correcto")),
      respuestaLinea(records[1]!, "Incorrecto", REJECTED),
    ]);
    expectUnavailable(await submit(body), "aeat:ambiguous_line");
  });
});
