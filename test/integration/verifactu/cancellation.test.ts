/**
 * verifactu-system.md §2, "Invoices issued by mistake: cancellation": the void of an `es`
 * invoice writes a RegistroAnulacion chained like any record and sends it; its verdict arrives
 * as invoice.verifactu_cancellation.accepted / .rejected.
 */
import { describe, expect, it, vi } from "vitest";
import { isAnulacion, recordId } from "../../../src/contracts/verifactu-record";
import { type client, expectStatus } from "../../helpers/api";
import { createDestination } from "../../helpers/factories";
import { esProfile, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { esAccount, recordingRegistry, runSubmissions } from "../../helpers/verifactu";
import { type Call, captureFetch } from "../../helpers/webhooks";

type Api = ReturnType<typeof client>;
const retrieve = async (api: Api, id: string) => (await api.get(`/v1/invoices/${id}`)).body as Invoice;
const field = (xml: string, name: string) => new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml)?.[1];
const voidIt = async (api: Api, id: string) => {
  const res = await api.post(`/v1/invoices/${id}/void`, { reason: "Issued by mistake" });
  expectStatus(res, 200);
  return res.body as Invoice;
};

describe("the void of an es invoice is its VERI*FACTU cancellation", () => {
  it("writes a RegistroAnulacion chained after the chain's latest record: verifactu.cancellation pending, then accepted by the sandbox", async () => {
    const { api, chain } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain);
    const voided = await voidIt(api, invoice.id);
    expect(voided.verifactu?.status).toBe("accepted");
    expect(voided.verifactu?.cancellation).toEqual({
      status: "pending",
      hash: null,
      previous_hash: null,
      generated_at: expect.stringMatching(/Z$/),
      csv: null,
      errors: [],
    });
    expect(voided.verifactu?.records.map((r) => r.kind)).toEqual(["registration", "cancellation"]);

    const cancellationUrl = voided.verifactu?.records[1]?.url ?? "";
    const xml = (await api.get(cancellationUrl)).text;
    expect(xml).toContain("<sf:RegistroAnulacion>");
    expect(field(xml, "IDEmisorFacturaAnulada")).toBe("B12345674");
    expect(field(xml, "NumSerieFacturaAnulada")).toBe(invoice.number);
    expect(xml).toContain(`<sf:Huella>${voided.verifactu?.hash}</sf:Huella></sf:RegistroAnterior>`);
    // The registration was accepted: AEAT holds it, so no SinRegistroPrevio.
    expect(field(xml, "SinRegistroPrevio")).toBeUndefined();

    await runSubmissions(chain);
    const after = await retrieve(api, invoice.id);
    expect(after.verifactu?.cancellation).toMatchObject({
      status: "accepted",
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      previous_hash: voided.verifactu?.hash,
      csv: expect.stringMatching(/^SANDBOX/),
    });
    // The top level still describes the registration.
    expect(after.verifactu?.status).toBe("accepted");
    expect(after.verifactu?.hash).toBe(voided.verifactu?.hash);
  });

  it("invoice.verifactu_cancellation.accepted arrives signed at a destination, its related object the invoice", async () => {
    const { calls } = captureFetch();
    const { api, chain } = await esAccount();
    const dest = await createDestination(api, {
      enabled_events: ["invoice.verifactu_cancellation.accepted"],
    });
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await voidIt(api, invoice.id);
    await runSubmissions(chain);
    await runSubmissions(chain);
    const toDest = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(toDest()).toHaveLength(1), { timeout: 5000, interval: 10 });
    const call = toDest()[0] as Call;
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({
      type: "invoice.verifactu_cancellation.accepted",
      related_object: { id: invoice.id, type: "invoice", url: `/v1/invoices/${invoice.id}` },
    });
    const signature = parseSignature(call.headers.get("service-signature"));
    expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call.body}`));
    const event = await api.get(`/v1/events/${body.id}`);
    expect((event.body as { data: { object: unknown } }).data.object).toEqual(
      await retrieve(api, invoice.id),
    );
  });

  it("a rejected cancellation is reported with invoice.verifactu_cancellation.rejected and its errors", async () => {
    const { api, chain } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain);
    await voidIt(api, invoice.id);
    const refusing = recordingRegistry(async (_i, records) => ({
      kind: "answered",
      outcomes: records.map(() => ({
        status: "rejected" as const,
        errors: [{ code: "3002", message: "No existe el registro de facturación." }],
      })),
      waitSeconds: 0,
    }));
    await runSubmissions(chain, refusing.registryFor);
    const after = await retrieve(api, invoice.id);
    expect(after.verifactu?.cancellation).toMatchObject({
      status: "rejected",
      errors: [{ code: "3002", message: "No existe el registro de facturación." }],
    });
    const events = await api.get(
      `/v1/events?type=invoice.verifactu_cancellation.rejected&related_object=${invoice.id}`,
    );
    expect((events.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it("a void of an invoice whose registration was never accepted sends SinRegistroPrevio S", async () => {
    const { api, chain } = await esAccount({
      ...esProfile,
      tax_id: { country: "ES", type: "es_nif", value: "99999999R" },
    });
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain);
    expect((await retrieve(api, invoice.id)).verifactu?.status).toBe("rejected");
    await voidIt(api, invoice.id);
    const sent = recordingRegistry();
    await runSubmissions(chain, sent.registryFor);
    const [request] = sent.requests;
    expect(request?.records).toHaveLength(1);
    expect(request?.records[0]).toMatchObject({ SinRegistroPrevio: "S" });
    // What was sent is what the record's URL serves.
    const voided = await retrieve(api, invoice.id);
    const xml = (await api.get(voided.verifactu?.records[1]?.url ?? "")).text;
    expect(field(xml, "SinRegistroPrevio")).toBe("S");
    expect(voided.verifactu?.cancellation?.status).toBe("accepted");
  });

  it("a void while the registration is still pending: the registration goes first, the cancellation in a later request", async () => {
    const { api, chain } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await voidIt(api, invoice.id);
    const sent = recordingRegistry();
    await runSubmissions(chain, sent.registryFor);
    await runSubmissions(chain, sent.registryFor);
    expect(sent.requests.map((r) => r.records.map((x) => (isAnulacion(x) ? "anulacion" : "alta")))).toEqual([
      ["alta"],
      ["anulacion"],
    ]);
    expect(sent.requests.map((r) => r.records.map((x) => recordId(x).NumSerieFactura))).toEqual([
      [invoice.number],
      [invoice.number],
    ]);
    // Accepted first: no SinRegistroPrevio on the cancellation.
    expect(sent.requests[1]?.records[0]).not.toHaveProperty("SinRegistroPrevio");
  });
});
