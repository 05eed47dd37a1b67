/**
 * compliance.md rules that differ between Test mode and Live, or with the deployment:
 * - "VERI*FACTU: Live uses the AEAT service with the deployment's certificate" (the other half,
 *   Live without AEAT_CERT, is in verifactu/submission.test.ts);
 * - "qr_url uses the AEAT test host in Test mode and its production host in Live";
 * - "The usage balance is debited by the configured price per invoice (USAGE_PRICE_INVOICE)".
 * AEAT is mocked at the network boundary only: the AEAT_CERT mTLS binding's `fetch`.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordRegistryFor, type VerifactuBindings } from "../../../src/verifactu";
import { AEAT_VERIFACTU_URL } from "../../../src/verifactu/aeat";
import { aeatDate } from "../../../src/verifactu/format";
import answerCorrect from "../../fixtures/verifactu/aeat-correcto.xml?raw";
import { client, expectStatus, request } from "../../helpers/api";
import { available, topUp, transactions } from "../../helpers/balance";
import { createAccount } from "../../helpers/factories";
import { getInvoice, type Invoice, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { runSubmissions } from "../../helpers/verifactu";
import { captureFetch } from "../../helpers/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fresh es account whose Test and Live environments both have the issuer profile. */
async function bothModes() {
  const account = await createAccount();
  const test = client(account.testKey);
  await setProfile(test);
  const live = await readyLive(account);
  return { account, test, live };
}

// AEAT's recorded answer (test/fixtures/verifactu/SOURCE.md) with its lines replaced by one
// `Correcto` line about `invoice`, and its NIF made ours.
const LINE_OPEN = "<tikR:RespuestaLinea>";
const LINE_CLOSE = "</tikR:RespuestaLinea>";
function acceptedAnswer(invoice: Invoice): string {
  // Each Live environment issues under a NIF of its own (helpers/live-ready.ts).
  const NIF = invoice.issuer.tax_id?.value ?? "";
  const line =
    `${LINE_OPEN}<tikR:IDFactura><tik:IDEmisorFactura>${NIF}</tik:IDEmisorFactura>` +
    `<tik:NumSerieFactura>${invoice.number}</tik:NumSerieFactura>` +
    `<tik:FechaExpedicionFactura>${aeatDate(invoice.issue_date ?? "")}</tik:FechaExpedicionFactura></tikR:IDFactura>` +
    `<tikR:Operacion><tik:TipoOperacion>Alta</tik:TipoOperacion></tikR:Operacion>` +
    `<tikR:EstadoRegistro>Correcto</tikR:EstadoRegistro>${LINE_CLOSE}`;
  const head = answerCorrect.slice(0, answerCorrect.indexOf(LINE_OPEN));
  const tail = answerCorrect.slice(answerCorrect.lastIndexOf(LINE_CLOSE) + LINE_CLOSE.length);
  return (head + line + tail).replaceAll("A00000000", NIF);
}

describe("VERI*FACTU: Live uses the AEAT service with the deployment's certificate", () => {
  it("with AEAT_CERT, a Live record is POSTed through the certificate to AEAT's production URL and reads back accepted", async () => {
    const { account, live } = await bothModes();
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const sent: { url: string; init: RequestInit }[] = [];
    const certificate = {
      fetch: async (url: string, init: RequestInit) => {
        sent.push({ url, init });
        return new Response(acceptedAnswer(issued), {
          headers: { "Content-Type": "text/xml;charset=UTF-8" },
        });
      },
    };
    const withCert: Env & VerifactuBindings = { ...env, AEAT_CERT: certificate };
    const { calls } = captureFetch();

    // The queue delivers the chain's message to the consumer, running with the binding.
    await runSubmissions({ accountId: account.id, live: true }, recordRegistryFor, withCert);

    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(AEAT_VERIFACTU_URL);
    expect(sent[0]?.init.method).toBe("POST");
    const body = String(sent[0]?.init.body);
    expect(body).toContain("<soapenv:Envelope");
    expect(body).toContain(`<sf:NumSerieFactura>${issued.number}</sf:NumSerieFactura>`);
    // Nothing went out without the certificate.
    expect(calls).toEqual([]);
    expect((await getInvoice(live, issued.id)).verifactu?.status).toBe("accepted");
  });
});

describe("qr_url uses the AEAT test host in Test mode and its production host in Live", () => {
  it("one account's Test invoice points at prewww2.aeat.es, its Live invoice at www2.agenciatributaria.gob.es", async () => {
    const { test, live } = await bothModes();
    const testInvoice = await issue(test, { type: "simplified", lines: [ivaLine()] });
    const liveInvoice = await issue(live, { type: "simplified", lines: [ivaLine()] });
    // The hosts of src/verifactu/qr.ts (AEAT's pre-production and production ValidarQR).
    expect(new URL(testInvoice.verifactu?.qr_url ?? "").host).toBe("prewww2.aeat.es");
    expect(new URL(liveInvoice.verifactu?.qr_url ?? "").host).toBe("www2.agenciatributaria.gob.es");
  });
});

describe("The usage balance is debited by the configured price per invoice (USAGE_PRICE_INVOICE)", () => {
  it('with USAGE_PRICE_INVOICE "0.25", issuing an invoice debits 0.25', async () => {
    const { account, test } = await bothModes();
    await topUp(account.id, false, 5_000);
    const res = await request(
      "POST",
      "/v1/invoices",
      { type: "simplified", lines: [ivaLine()] },
      { key: account.testKey, bindings: { ...env, USAGE_PRICE_INVOICE: "0.25" } },
    );
    expectStatus(res, 201);
    const invoice = res.body as Invoice;

    const [debit] = await transactions(test, "&type=usage");
    expect(debit).toMatchObject({
      type: "usage",
      amount: "-0.25",
      balance_after: "49.75",
      description: `Invoice ${invoice.id} issued`,
    });
    expect(await available(test)).toBe("49.75");
  });
});
