/**
 * Void (lifecycle.md): POST /v1/invoices/{id}/void. Only an issued invoice without payments
 * that was never corrected; the number stays used; invoice.voided; the PDF rendered again
 * with its mark and invoice.pdf.generated recorded again. The mark itself is read back with
 * poppler in test/tooling/pdf-void.test.ts.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PdfMessage } from "../../../src/contracts/pdf-message";
import { pdfKey } from "../../../src/invoices/pdf/generate";
import { type ApiClient, client, expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { beforeBatches } from "../../helpers/db";
import { createAccount, createInstruction } from "../../helpers/factories";
import { esIssuer, getInvoice, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { runPdfGeneration } from "../../helpers/pdf";
import { expectError } from "../../helpers/security";
import { runCron } from "../../helpers/verifications";

afterEach(() => {
  vi.restoreAllMocks();
});

const DAY = 86_400_000;

async function issued() {
  const { account, api, customer } = await esIssuer();
  const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
  return { account, api, customer, invoice };
}

const voidIt = (api: ApiClient, id: string, body: unknown = { reason: "Issued by mistake" }) =>
  api.post(`/v1/invoices/${id}/void`, body);

const eventsOf = async (api: ApiClient, type: string) =>
  (await api.get(`/v1/events?type=${type}`)).body.data as {
    related_object: { id: string };
    data: { object: Invoice };
  }[];

/** Sets columns of an invoice row directly (what the payments and drafts APIs will do). */
const setRow = (id: string, assignments: string) =>
  env.DB.prepare(`UPDATE invoices SET ${assignments} WHERE id = ?`).bind(id).run();

describe("POST /v1/invoices/{id}/void", () => {
  it("voiding an issued invoice answers 200 with status void, voided_at and void_reason", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 10));
    const { api, invoice } = await issued();
    clock.advance(60_000);
    const res = await voidIt(api, invoice.id, { reason: "Issued by mistake: duplicate of INV-0001" });
    expectStatus(res, 200);
    const body = res.body as Invoice;
    expect(body).toMatchObject({
      id: invoice.id,
      status: "void",
      voided_at: new Date(clock.now()).toISOString(),
      void_reason: "Issued by mistake: duplicate of INV-0001",
      number: invoice.number,
      payment_status: invoice.payment_status,
      total: invoice.total,
    });
    expect(await getInvoice(api, invoice.id)).toEqual(body);
  });

  it("a voided invoice's number stays used: it is never deleted and the next number follows it", async () => {
    const { api, customer, invoice } = await issued();
    expectStatus(await voidIt(api, invoice.id), 200);
    const next = await issue(api, { customer: customer.id, lines: [ivaLine("50")] });
    const number = (s: string | null) => Number(/(\d+)$/.exec(s ?? "")?.[1]);
    expect(number(next.number)).toBe(number(invoice.number) + 1);
    const list = (await api.get("/v1/invoices")).body as { data: Invoice[] };
    expect(list.data.map((i) => [i.id, i.status])).toEqual([
      [next.id, "issued"],
      [invoice.id, "void"],
    ]);
  });

  it("reason is required, 1 to 500 characters", async () => {
    const { api, invoice } = await issued();
    expectError(await voidIt(api, invoice.id, {}), 400, "parameter_missing", "reason");
    expectError(await voidIt(api, invoice.id, { reason: "" }), 400, "parameter_invalid", "reason");
    expectError(
      await voidIt(api, invoice.id, { reason: "x".repeat(501) }),
      400,
      "parameter_invalid",
      "reason",
    );
    expectError(await voidIt(api, invoice.id, { reason: "ok", extra: 1 }), 400, "parameter_unknown", "extra");
    expectStatus(await voidIt(api, invoice.id, { reason: "x".repeat(500) }), 200);
  });

  it("an unknown invoice, or another account's, is 404", async () => {
    const { invoice } = await issued();
    const other = client((await createAccount()).testKey);
    expectError(await voidIt(other, invoice.id), 404, "resource_missing");
    expectError(await voidIt(other, "inv_01JDTEST0000000000000000"), 404, "resource_missing");
  });

  it("only an issued invoice can be voided: a draft is 409 invoice_not_voidable", async () => {
    const { api, customer } = await esIssuer();
    // A real draft: the database refuses to turn an issued invoice back into one (migration 0033).
    const draft = await api.post("/v1/invoices", {
      draft: true,
      customer: customer.id,
      lines: [ivaLine("100")],
    });
    expectError(await voidIt(api, (draft.body as Invoice).id), 409, "invoice_not_voidable");
  });

  it("only an issued invoice can be voided: an already void invoice is 409 invoice_not_voidable", async () => {
    const { api, invoice } = await issued();
    expectStatus(await voidIt(api, invoice.id), 200);
    expectError(await voidIt(api, invoice.id), 409, "invoice_not_voidable");
    expect(await eventsOf(api, "invoice.voided")).toHaveLength(1);
  });

  it("an invoice with payments cannot be voided: 409 invoice_has_payments", async () => {
    const { api, invoice } = await issued();
    await setRow(invoice.id, "amount_paid = 1000, payment_status = 'partially_paid'");
    expectError(await voidIt(api, invoice.id), 409, "invoice_has_payments");
    expect((await getInvoice(api, invoice.id)).status).toBe("issued");
  });

  it("an invoice that has been corrected (corrected_by not empty) cannot be voided: 409 invoice_corrected", async () => {
    const { api, invoice } = await issued();
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: invoice.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expect((await getInvoice(api, invoice.id)).corrected_by).toEqual([corrective.id]);
    expectError(await voidIt(api, invoice.id), 409, "invoice_corrected");
  });

  it("a payment committed between the void's read and its write wins: 409 invoice_has_payments, nothing voided, no event", async () => {
    const { api, invoice } = await issued();
    beforeBatches(async (sql) => {
      if (sql.includes('update "invoices" set "status"')) {
        await setRow(invoice.id, "amount_paid = 1000, payment_status = 'partially_paid'");
      }
    });
    expectError(await voidIt(api, invoice.id), 409, "invoice_has_payments");
    vi.restoreAllMocks();
    expect((await getInvoice(api, invoice.id)).status).toBe("issued");
    expect(await eventsOf(api, "invoice.voided")).toEqual([]);
  });

  it("a correction committed between the void's read and its write wins: 409 invoice_corrected", async () => {
    const { api, invoice } = await issued();
    beforeBatches(async (sql) => {
      if (sql.includes('update "invoices" set "status"')) {
        await setRow(invoice.id, "corrected_by = json_array('inv_01JDTEST0000000000000000')");
      }
    });
    expectError(await voidIt(api, invoice.id), 409, "invoice_corrected");
  });

  it("Only an issued invoice can be corrected: corrects.invoice naming a void invoice is 400 with param corrects.invoice", async () => {
    const { api, invoice } = await issued();
    expectStatus(await voidIt(api, invoice.id), 200);
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: invoice.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.invoice");
  });

  it("a void committed between a corrective's read and its write wins: 400 on corrects.invoice, nothing issued", async () => {
    const { api, invoice } = await issued();
    let voided = false;
    beforeBatches(async (sql) => {
      if (!voided && sql.includes('insert into "invoices"')) {
        voided = true;
        await setRow(
          invoice.id,
          "status = 'void', voided_at = '2026-11-23T10:00:00.000Z', void_reason = 'x'",
        );
      }
    });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: invoice.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    vi.restoreAllMocks();
    expectError(res, 400, "parameter_invalid", "corrects.invoice");
    expect((await getInvoice(api, invoice.id)).corrected_by).toEqual([]);
  });

  it("Only an issued invoice can be corrected: corrects.invoice naming a draft is 400 with param corrects.invoice", async () => {
    const { api, customer } = await esIssuer();
    const draft = await api.post("/v1/invoices", {
      draft: true,
      customer: customer.id,
      lines: [ivaLine("100")],
    });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: (draft.body as Invoice).id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.invoice");
  });
});

describe("the void's event", () => {
  it("Event invoice.voided: data.object is the void invoice", async () => {
    const { api, invoice } = await issued();
    const res = await voidIt(api, invoice.id);
    const events = await eventsOf(api, "invoice.voided");
    expect(events).toHaveLength(1);
    expect(events[0]!.related_object.id).toBe(invoice.id);
    expect(events[0]!.data.object).toEqual(res.body);
  });

  it("a replayed void (the same Idempotency-Key) answers the same and records one event", async () => {
    const { account, api, invoice } = await issued();
    const send = () =>
      request(
        "POST",
        `/v1/invoices/${invoice.id}/void`,
        { reason: "Issued by mistake" },
        { key: account.testKey, headers: { "Idempotency-Key": `void-${invoice.id}` } },
      );
    const first = await send();
    const replay = await send();
    expectStatus(first, 200);
    expectStatus(replay, 200);
    expect(replay.text).toBe(first.text);
    expect(await eventsOf(api, "invoice.voided")).toHaveLength(1);
  });
});

describe("the void invoice's PDF", () => {
  const pdfEvents = async (api: ApiClient, id: string) =>
    (await eventsOf(api, "invoice.pdf.generated")).filter((e) => e.related_object.id === id);

  it("The stored PDF is re-rendered with the void mark, and invoice.pdf.generated is recorded again", async () => {
    const { account, api, invoice } = await issued();
    await runPdfGeneration(invoice.id);
    const key = pdfKey({ accountId: account.id, live: false, id: invoice.id });
    const before = new Uint8Array(await (await env.PDFS.get(key))!.arrayBuffer());
    const sends = vi.spyOn(env.INVOICE_PDFS as Queue<PdfMessage>, "send");
    expectStatus(await voidIt(api, invoice.id), 200);
    await vi.waitFor(() => expect(sends.mock.calls.map(([body]) => body.invoice_id)).toContain(invoice.id));
    await runPdfGeneration(invoice.id);
    const after = new Uint8Array(await (await env.PDFS.get(key))!.arrayBuffer());
    expect(after).not.toEqual(before);
    const events = await pdfEvents(api, invoice.id);
    expect(events.map((e) => e.data.object.status)).toEqual(["void", "issued"]);
    // A duplicate message renders nothing more.
    await runPdfGeneration(invoice.id);
    expect(await pdfEvents(api, invoice.id)).toHaveLength(2);
  });

  it("GET /v1/invoices/{id}/pdf of a void invoice not yet rendered again renders the void version, not the stored issued one", async () => {
    const { account, api, invoice } = await issued();
    await runPdfGeneration(invoice.id);
    const key = pdfKey({ accountId: account.id, live: false, id: invoice.id });
    const issuedPdf = new Uint8Array(await (await env.PDFS.get(key))!.arrayBuffer());
    vi.spyOn(env.INVOICE_PDFS as Queue<PdfMessage>, "send").mockResolvedValue(undefined as never);
    expectStatus(await voidIt(api, invoice.id), 200);
    const res = await api.get(`/v1/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
    const stored = new Uint8Array(await (await env.PDFS.get(key))!.arrayBuffer());
    expect(stored).not.toEqual(issuedPdf);
    expect((await pdfEvents(api, invoice.id)).map((e) => e.data.object.status)).toEqual(["void", "issued"]);
  });

  it("a render of the issued invoice that finishes after the void records nothing: the void's render records the event", async () => {
    const { api, invoice } = await issued();
    // The issuance's render reads the row, then the void commits before its write.
    beforeBatches(async (sql) => {
      if (sql.includes("invoice.pdf.generated") || sql.includes('"pdf_generated_at" = ?')) {
        vi.restoreAllMocks();
        expectStatus(await voidIt(api, invoice.id), 200);
      }
    });
    await runPdfGeneration(invoice.id);
    vi.restoreAllMocks();
    expect(await pdfEvents(api, invoice.id)).toEqual([]);
    await runPdfGeneration(invoice.id);
    expect((await pdfEvents(api, invoice.id)).map((e) => e.data.object.status)).toEqual(["void"]);
  });
});

describe("a void invoice and overdue", () => {
  it("A void invoice keeps its payment_status (it had no payments) and is never overdue", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 10));
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, {
      customer: customer.id,
      lines: [ivaLine("100")],
      payment_terms: { due_date: "2026-11-21", options: [(await createInstruction(api)).id] },
    });
    expectStatus(await voidIt(api, invoice.id), 200);
    clock.advance(10 * DAY);
    const voided = await getInvoice(api, invoice.id);
    expect(voided).toMatchObject({ status: "void", payment_status: "unpaid", overdue: false });
    await runCron();
    expect(await eventsOf(api, "invoice.overdue")).toEqual([]);
    const listed = (await api.get("/v1/invoices?overdue=true")).body as { data: Invoice[] };
    expect(listed.data).toEqual([]);
  });
});
