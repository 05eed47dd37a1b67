/**
 * The archive of issued invoices (docs/operations.md#invoice-archive, src/archive/): after
 * issuance and the PDF consumer, the ARCHIVE bucket holds each invoice's JSON, PDF and
 * VERI*FACTU XML, written once; a void adds its own objects; the cron sweep archives what the
 * consumer missed; and an invoice lost from its shard is restored from it
 * (`npm run archive:restore`, whose steps src/archive/restore.ts runs here on the local shard).
 */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { archiveFolder } from "../../../src/archive/keys";
import { restoreInvoice } from "../../../src/archive/restore";
import { archiveInvoice } from "../../../src/archive/write";
import { PDF_QUEUE } from "../../../src/contracts/pdf-message";
import { pdfKey } from "../../../src/invoices/pdf/generate";
import jobs from "../../../src/jobs";
import { expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { esIssuer, getInvoice, issue, ivaLine } from "../../helpers/invoices";
import { runPdfGeneration } from "../../helpers/pdf";
import { runSubmissions } from "../../helpers/verifactu";
import { runCron } from "../../helpers/verifications";

/** The `invoice-pdfs` queue's turn through the background Worker's handler (src/jobs.ts). */
async function runPdfQueue(invoiceId: string) {
  const batch = createMessageBatch(PDF_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { invoice_id: invoiceId } },
  ]);
  const ctx = createExecutionContext();
  await jobs.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

async function issued() {
  const { account, api, customer } = await esIssuer();
  const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
  const folder = archiveFolder({ accountId: account.id, live: false, id: invoice.id });
  return { account, api, invoice, folder };
}

const names = async (folder: string) =>
  (await env.ARCHIVE.list({ prefix: folder })).objects.map((o) => o.key.slice(folder.length)).sort();
const text = async (key: string) => (await env.ARCHIVE.get(key))?.text();
const bytes = async (key: string) =>
  new Uint8Array(await ((await env.ARCHIVE.get(key)) as R2ObjectBody).arrayBuffer());
const archivedAt = async (id: string) =>
  (await env.DB.prepare("SELECT archived_at FROM invoices WHERE id = ?").bind(id).first())?.archived_at;

describe("the invoice archive", () => {
  it("the archive holds the invoice's JSON, PDF and VERI*FACTU XML after issuance and the PDF consumer, as the API serves them", async () => {
    const { account, api, invoice, folder } = await issued();
    expect(await names(folder)).toEqual([]);
    await runPdfQueue(invoice.id);

    const shown = await getInvoice(api, invoice.id);
    const record = shown.verifactu?.records?.[0]?.id as string;
    expect(record).toEqual(expect.any(String));
    expect(await names(folder)).toEqual(["invoice.json", "invoice.pdf", `verifactu-${record}.xml`]);
    const doc = JSON.parse((await text(`${folder}invoice.json`)) as string);
    expect(doc.invoice).toEqual(shown);
    expect(doc.rows.invoice).toMatchObject({
      id: invoice.id,
      number: invoice.number,
      account_id: account.id,
    });
    expect(doc.rows.verifactu_records).toHaveLength(1);
    // The PDF GET /v1/invoices/{id}/pdf serves: the stored one.
    const stored = await env.PDFS.get(pdfKey({ accountId: account.id, live: false, id: invoice.id }));
    expect(await bytes(`${folder}invoice.pdf`)).toEqual(
      new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()),
    );
    const xml = await api.get(`/v1/invoices/${invoice.id}/verifactu-records/${record}`);
    expect(await text(`${folder}verifactu-${record}.xml`)).toBe(xml.text);
    expect(await archivedAt(invoice.id)).toEqual(expect.any(String));
  });

  it("the archive is append-only: a later state never replaces an object, and a void adds the void's objects beside the issued ones", async () => {
    const { account, api, invoice, folder } = await issued();
    await runPdfQueue(invoice.id);
    const first = await env.ARCHIVE.head(`${folder}invoice.json`);
    const firstJson = await text(`${folder}invoice.json`);
    await env.DB.prepare("UPDATE invoices SET archived_at = NULL WHERE id = ?").bind(invoice.id).run();
    expect(await archiveInvoice(env, invoice.id)).toBe(true);
    expect((await env.ARCHIVE.head(`${folder}invoice.json`))?.etag).toBe(first?.etag);
    expect(await text(`${folder}invoice.json`)).toBe(firstJson);

    // The registration is sent (and accepted by the sandbox) before the void.
    await runSubmissions({ accountId: account.id, live: false });
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/void`, { reason: "Issued by mistake" }), 200);
    // The void cleared `archived_at` (a trigger): the new state is to be archived.
    expect(await archivedAt(invoice.id)).toBeNull();
    await runPdfQueue(invoice.id);
    // The cancellation is archived once sent (its SinRegistroPrevio is set then).
    await runSubmissions({ accountId: account.id, live: false });
    await runPdfQueue(invoice.id);
    const voided = await getInvoice(api, invoice.id);
    const records = (voided.verifactu?.records ?? []).map((r) => `verifactu-${r.id}.xml`);
    expect(records).toHaveLength(2);
    expect(await names(folder)).toEqual(
      ["invoice-void.json", "invoice-void.pdf", "invoice.json", "invoice.pdf", ...records].sort(),
    );
    expect(await text(`${folder}invoice.json`)).toBe(firstJson);
    expect(JSON.parse((await text(`${folder}invoice-void.json`)) as string).invoice).toEqual(voided);
    expect(await archivedAt(invoice.id)).toEqual(expect.any(String));
  });

  it("the sweep archives an invoice the consumer missed, once its grace period is over", async () => {
    const clock = useClock(Date.now());
    const { invoice, folder } = await issued();
    // The PDF stored by the consumer alone: no archive step ran.
    await runPdfGeneration(invoice.id);
    await runCron();
    expect(await names(folder)).toEqual([]);
    clock.advance(5 * 60_000 + 1);
    await runCron();
    expect(await names(folder)).toContain("invoice.json");
    expect(await names(folder)).toContain("invoice.pdf");
    expect(await archivedAt(invoice.id)).toEqual(expect.any(String));
  });

  it("restore: an invoice lost from its shard is inserted again from its archive, and the API serves the same invoice", async () => {
    const { account, api, invoice, folder } = await issued();
    await runPdfQueue(invoice.id);
    const before = await getInvoice(api, invoice.id);
    const xmlBefore = (
      await api.get(`/v1/invoices/${invoice.id}/verifactu-records/${before.verifactu?.records?.[0]?.id}`)
    ).text;

    // The loss: the rows deleted through the triggers' one escape (a `fiscal_moves` row, as an
    // account move writes), then the escape removed.
    const db = env.DB;
    await db
      .prepare("INSERT INTO fiscal_moves VALUES (?, 'nowhere', '2026-01-01T00:00:00.000Z')")
      .bind(account.id)
      .run();
    await db.prepare("DELETE FROM verifactu_records WHERE invoice_id = ?").bind(invoice.id).run();
    await db.prepare("DELETE FROM invoices WHERE id = ?").bind(invoice.id).run();
    await db.prepare("DELETE FROM fiscal_moves WHERE account_id = ?").bind(account.id).run();
    expectStatus(await api.get(`/v1/invoices/${invoice.id}`), 404);

    const read = async (key: string) => (await env.ARCHIVE.get(key))?.text() ?? null;
    const sql = async (statement: string) =>
      (await db.prepare(statement).all()).results as Record<string, unknown>[];
    const dryRun = await restoreInvoice(read, sql, folder, false);
    expect(dryRun).toMatchObject({ restored: false, from: "invoice.json" });
    expectStatus(await api.get(`/v1/invoices/${invoice.id}`), 404);

    const result = await restoreInvoice(read, sql, folder, true);
    expect(result).toMatchObject({ restored: true, from: "invoice.json" });
    expect("objects" in result && result.objects.sort()).toEqual(
      ["invoice.json", "invoice.pdf", `verifactu-${before.verifactu?.records?.[0]?.id}.xml`].sort(),
    );
    expect(await getInvoice(api, invoice.id)).toEqual(before);
    expect(
      (await api.get(`/v1/invoices/${invoice.id}/verifactu-records/${before.verifactu?.records?.[0]?.id}`))
        .text,
    ).toBe(xmlBefore);
    // Restored, it is protected again, and a second restore writes nothing.
    await expect(db.prepare("DELETE FROM invoices WHERE id = ?").bind(invoice.id).run()).rejects.toThrow(
      /invoice_immutable/,
    );
    expect(await restoreInvoice(read, sql, folder, true)).toMatchObject({ restored: false });
  });
});
