/**
 * The invoice PDF (compliance.md): rendered after issuance through the invoice-pdfs queue by
 * the renderer Worker (a real auxiliary Worker here), stored in R2, `invoice.pdf.generated`
 * recorded once; `GET /v1/invoices/{id}/pdf` serves the stored file or renders it on demand.
 * What the PDF shows is checked with poppler and zbar in test/tooling/pdf.test.ts.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PdfMessage } from "../../../src/contracts/pdf-message";
import { pdfKey } from "../../../src/invoices/pdf/generate";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount } from "../../helpers/factories";
import { customerWithAddress, type Invoice, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { runPdfGeneration } from "../../helpers/pdf";
import { expectError } from "../../helpers/security";
import { runCron } from "../../helpers/verifications";

afterEach(() => {
  vi.restoreAllMocks();
});

async function esInvoice() {
  const account = await createAccount();
  const api = client(account.testKey);
  await setProfile(api);
  const customer = await customerWithAddress(api, { name: "Cliente Ñandú SA" });
  const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
  return { account, api, invoice };
}

const pdfEvents = async (api: ReturnType<typeof client>) =>
  (await api.get("/v1/events?type=invoice.pdf.generated")).body.data as { related_object: { id: string } }[];

describe("the PDF is generated after issuance through a queue, stored in R2, and recorded once", () => {
  it("issuing puts the invoice on the invoice-pdfs queue", async () => {
    const sends = vi.spyOn(env.INVOICE_PDFS as Queue<PdfMessage>, "send");
    const { invoice } = await esInvoice();
    await vi.waitFor(() =>
      expect(sends.mock.calls.map(([body]) => body)).toContainEqual({ invoice_id: invoice.id, shard: "DB" }),
    );
  });

  it("the consumer stores the rendered PDF in R2 and records invoice.pdf.generated, once", async () => {
    const { account, api, invoice } = await esInvoice();
    await runPdfGeneration(invoice.id);
    const stored = await env.PDFS.get(pdfKey({ accountId: account.id, live: false, id: invoice.id }));
    expect(stored?.httpMetadata?.contentType).toBe("application/pdf");
    const bytes = new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    await runPdfGeneration(invoice.id);
    const events = await pdfEvents(api);
    expect(events.map((e) => e.related_object.id)).toEqual([invoice.id]);
  });
});

describe("the cron sweep asks again for a PDF whose message was lost, once", () => {
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const askedFor = (sends: { mock: { calls: [PdfMessage, ...unknown[]][] } }, id: string) =>
    sends.mock.calls.filter(([body]) => body.invoice_id === id).length;

  it("an invoice ten minutes old without a PDF is asked for again; a younger one is left to its issuance and the queue's retries", async () => {
    const clock = useClock(Date.now());
    const { invoice } = await esInvoice();
    const sends = vi.spyOn(env.INVOICE_PDFS as Queue<PdfMessage>, "send");
    clock.advance(9 * MINUTE);
    await runCron();
    expect(askedFor(sends, invoice.id)).toBe(0);
    clock.advance(MINUTE + SECOND);
    await runCron();
    expect(askedFor(sends, invoice.id)).toBe(1);
  });

  it("an invoice is swept once: one whose render keeps failing is not asked for every minute (its PDF still renders on GET)", async () => {
    const clock = useClock(Date.now());
    const { invoice } = await esInvoice();
    const sends = vi.spyOn(env.INVOICE_PDFS as Queue<PdfMessage>, "send");
    clock.advance(10 * MINUTE + SECOND);
    await runCron();
    clock.advance(60 * SECOND);
    await runCron();
    expect(askedFor(sends, invoice.id)).toBe(1);
  });

  it("an invoice whose sweep message the queue refused is asked for again on the next run", async () => {
    const clock = useClock(Date.now());
    const { invoice } = await esInvoice();
    const queue = env.INVOICE_PDFS as Queue<PdfMessage>;
    const send = queue.send.bind(queue);
    let refused = false;
    const sends = vi.spyOn(queue, "send").mockImplementation(async (body, options) => {
      if (body.invoice_id !== invoice.id || refused) return send(body, options);
      refused = true;
      throw new Error("queue unavailable");
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    clock.advance(10 * MINUTE + SECOND);
    await runCron();
    clock.advance(60 * SECOND);
    await runCron();
    expect(askedFor(sends, invoice.id)).toBe(2);
    clock.advance(60 * SECOND);
    await runCron();
    expect(askedFor(sends, invoice.id)).toBe(2);
  });
});

describe("GET /v1/invoices/{id}/pdf", () => {
  it("serves the stored file", async () => {
    const { account, api, invoice } = await esInvoice();
    await runPdfGeneration(invoice.id);
    const key = pdfKey({ accountId: account.id, live: false, id: invoice.id });
    // Replace the stored file: the GET must serve what is stored, not render again.
    await env.PDFS.put(key, "%PDF-stored", { httpMetadata: { contentType: "application/pdf" } });
    const res = await api.get(`/v1/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${invoice.number}.pdf"`);
    expect(res.text).toBe("%PDF-stored");
  });

  it("renders on demand before the queue got to it, stores it, and records the event once", async () => {
    const { account, api, invoice } = await esInvoice();
    const res = await api.get(`/v1/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.text.startsWith("%PDF-")).toBe(true);
    expect(
      await env.PDFS.head(pdfKey({ accountId: account.id, live: false, id: invoice.id })),
    ).not.toBeNull();
    // The queue's turn then finds it done.
    await runPdfGeneration(invoice.id);
    expect((await pdfEvents(api)).map((e) => e.related_object.id)).toEqual([invoice.id]);
  });

  it("the renderer is deterministic: from the queue and on demand give the same bytes", async () => {
    const { account, api, invoice } = await esInvoice();
    const key = pdfKey({ accountId: account.id, live: false, id: invoice.id });
    const storedBytes = async () =>
      new Uint8Array(await ((await env.PDFS.get(key)) as R2ObjectBody).arrayBuffer());
    await runPdfGeneration(invoice.id);
    const fromQueue = await storedBytes();
    await env.PDFS.delete(key);
    // Nothing stored now: the GET renders the file again, and stores what it serves.
    expectStatus(await api.get(`/v1/invoices/${invoice.id}/pdf`), 200);
    const onDemand = await storedBytes();
    expect(new TextDecoder().decode(fromQueue.slice(0, 5))).toBe("%PDF-");
    expect(onDemand).toEqual(fromQueue);
  });

  it("the renderer draws the invoice as the API shows it, with its verifactu.qr_url as the QR", async () => {
    const { api, invoice } = await esInvoice();
    const renderer = env.PDF_RENDERER;
    const original = renderer.fetch.bind(renderer);
    const inputs: unknown[] = [];
    vi.spyOn(renderer, "fetch").mockImplementation(async (input, init) => {
      inputs.push(JSON.parse(String(init?.body)));
      return original(input as string, init);
    });
    expect((await api.get(`/v1/invoices/${invoice.id}/pdf`)).status).toBe(200);
    const shown = (await api.get(`/v1/invoices/${invoice.id}`)).body as Invoice;
    // The QR's content is checked against the drawn page with zbarimg in test/tooling/pdf.test.ts.
    expect(inputs).toEqual([{ invoice: shown, corrected: null, qrUrl: shown.verifactu?.qr_url }]);
  });

  it("a name in any script renders (never a 500)", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    await setProfile(api);
    const customer = await customerWithAddress(api, { name: "Ωμέγα Жуков 山田太郎 محمد שלום 🙂" });
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.get(`/v1/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
  });

  it("another account's invoice does not exist", async () => {
    const { invoice } = await esInvoice();
    const other = client((await createAccount()).testKey);
    expectError(await other.get(`/v1/invoices/${invoice.id}/pdf`), 404, "resource_missing");
  });
});
