/**
 * verifactu-system.md §1-§4 in Live: the consumer speaks to a local stand-in of AEAT's service
 * through the deployment's AEAT_CERT binding (the network boundary), answering as AEAT does:
 * its recorded `Correcto` answer with its CSV, a 5xx, a SOAP fault 4112, a timeout. Nothing
 * leaves for the internet.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordRegistryFor, type VerifactuBindings } from "../../../src/verifactu";
import { aeatDate } from "../../../src/verifactu/format";
import answerCorrect from "../../fixtures/verifactu/aeat-correcto.xml?raw";
import { type ApiClient, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount } from "../../helpers/factories";
import { getInvoice, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { runSubmissions } from "../../helpers/verifactu";

afterEach(() => {
  vi.restoreAllMocks();
});

const LINE_OPEN = "<tikR:RespuestaLinea>";
const LINE_CLOSE = "</tikR:RespuestaLinea>";
const START = Date.UTC(2026, 10, 23, 10);

/** AEAT's recorded answer with one line per invoice, each `state` (and its NIF made ours). */
function answer(invoices: readonly Invoice[], state = "Correcto", operation = "Alta"): string {
  const nif = invoices[0]?.issuer.tax_id?.value ?? "";
  const lines = invoices.map(
    (invoice) =>
      `${LINE_OPEN}<tikR:IDFactura><tik:IDEmisorFactura>${nif}</tik:IDEmisorFactura>` +
      `<tik:NumSerieFactura>${invoice.number}</tik:NumSerieFactura>` +
      `<tik:FechaExpedicionFactura>${aeatDate(invoice.issue_date ?? "")}</tik:FechaExpedicionFactura></tikR:IDFactura>` +
      `<tikR:Operacion><tik:TipoOperacion>${operation}</tik:TipoOperacion></tikR:Operacion>` +
      `<tikR:EstadoRegistro>${state}</tikR:EstadoRegistro>${LINE_CLOSE}`,
  );
  const head = answerCorrect.slice(0, answerCorrect.indexOf(LINE_OPEN));
  const tail = answerCorrect.slice(answerCorrect.lastIndexOf(LINE_CLOSE) + LINE_CLOSE.length);
  return (head + lines.join("") + tail).replaceAll("A00000000", nif);
}

/** A stand-in of AEAT behind the certificate binding, answering each request with `reply`. */
function standIn(reply: (body: string, n: number) => Response | Promise<Response>) {
  const bodies: string[] = [];
  const certificate = {
    fetch: async (_url: string, init: RequestInit) => {
      bodies.push(String(init.body));
      return reply(String(init.body), bodies.length);
    },
  };
  const bindings = { ...env, AEAT_CERT: certificate } as unknown as Env & VerifactuBindings;
  return { bodies, bindings };
}
const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "Content-Type": "text/xml;charset=UTF-8" } });

async function liveAccount(): Promise<{ live: ApiClient; chain: { accountId: string; live: true } }> {
  const account = await createAccount();
  return { live: await readyLive(account), chain: { accountId: account.id, live: true } };
}

describe("Live: AEAT's CSV and presentation time are stored per record when it is accepted", () => {
  it("AEAT's recorded Correcto answer: accepted, csv A-86U4KHPACUMVZE, registered_at as AEAT gave it", async () => {
    const { live, chain } = await liveAccount();
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const aeat = standIn(() => xml(answer([issued])));
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expect(aeat.bodies).toHaveLength(1);
    const [record] = (await getInvoice(live, issued.id)).verifactu?.records ?? [];
    expect(record).toMatchObject({
      status: "accepted",
      csv: "A-86U4KHPACUMVZE",
      registered_at: "2025-10-13T12:34:56+02:00",
    });
  });
});

describe("Live: when AEAT cannot be reached, an incident opens, and records generated meanwhile carry Incidencia S", () => {
  it("a 503, then a timeout-like network error, then AEAT answers: the incident closes; the later record's request has Incidencia S", async () => {
    const clock = useClock(START);
    const { live, chain } = await liveAccount();
    const first = await issue(live, { type: "simplified", lines: [ivaLine()] });
    let later: Invoice | undefined;
    const aeat = standIn((_body, n) => {
      if (n === 1) return xml("<html>Service Unavailable</html>", 503);
      if (n === 2) throw new Error("network connection lost");
      return xml(answer(n === 3 ? [first] : [later as Invoice]));
    });
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    const status = await live.get("/v1/verifactu/status");
    expectStatus(status, 200);
    expect(status.body).toMatchObject({
      live: true,
      pending: 1,
      incident_since: new Date(START).toISOString(),
    });
    later = await issue(live, { type: "simplified", lines: [ivaLine()] });

    for (let turn = 0; turn < 3; turn++) {
      clock.advance(60_000);
      await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    }
    expect(aeat.bodies).toHaveLength(4);
    expect(aeat.bodies[2]).not.toContain("<sf:Incidencia>");
    expect(aeat.bodies[3]).toContain(
      "<sf:RemisionVoluntaria><sf:Incidencia>S</sf:Incidencia></sf:RemisionVoluntaria>",
    );
    expect((await getInvoice(live, later.id)).verifactu?.status).toBe("accepted");
    expect((await live.get("/v1/verifactu/status")).body).toMatchObject({ pending: 0, incident_since: null });
  });

  it("a SOAP fault 4112 (the certificate may not file for the issuer) judges nothing: pending, retried after an hour", async () => {
    const clock = useClock(START);
    const { live, chain } = await liveAccount();
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const fault =
      '<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body><env:Fault><faultcode>env:Client</faultcode><faultstring>Codigo[4112].El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.</faultstring></env:Fault></env:Body></env:Envelope>';
    const aeat = standIn(() => xml(fault, 500));
    vi.spyOn(console, "log").mockImplementation(() => {});
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    clock.advance(59 * 60_000);
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expect(aeat.bodies).toHaveLength(1);
    clock.advance(60_000);
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expect(aeat.bodies).toHaveLength(2);
    expect((await getInvoice(live, issued.id)).verifactu?.status).toBe("pending");
  });

  it("a duplicate (3000, the record AEAT already holds from a lost answer) counts as accepted", async () => {
    const { live, chain } = await liveAccount();
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const duplicate = answer([issued], "Incorrecto").replace(
      "<tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro>",
      "<tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro><tikR:CodigoErrorRegistro>3000</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>Registro de facturación duplicado.</tikR:DescripcionErrorRegistro><tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>202510131234560001</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>Correcta</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>",
    );
    const aeat = standIn(() => xml(duplicate));
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expect((await getInvoice(live, issued.id)).verifactu?.status).toBe("accepted");
  });
});

describe("Live: the void is sent to AEAT as a RegistroAnulacion", () => {
  it("the cancellation is POSTed after the registration and reads back accepted with AEAT's CSV", async () => {
    const clock = useClock(START);
    const { live, chain } = await liveAccount();
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const aeat = standIn((body) =>
      xml(
        body.includes("<sf:RegistroAnulacion>")
          ? answer([issued], "Correcto", "Anulacion")
          : answer([issued]),
      ),
    );
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expectStatus(await live.post(`/v1/invoices/${issued.id}/void`, { reason: "Issued by mistake" }), 200);
    // After AEAT's TiempoEsperaEnvio (60 s in its recorded answer).
    clock.advance(60_000);
    await runSubmissions(chain, recordRegistryFor, aeat.bindings);
    expect(aeat.bodies[1]).toContain("<sf:RegistroAnulacion>");
    expect(aeat.bodies[1]).not.toContain("<sf:SinRegistroPrevio>");
    expect((await getInvoice(live, issued.id)).verifactu?.cancellation).toMatchObject({
      status: "accepted",
      csv: "A-86U4KHPACUMVZE",
    });
  });
});
