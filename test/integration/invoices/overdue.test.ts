/**
 * Overdue (lifecycle.md): `overdue` is true when issued, unpaid or partially_paid, and the due
 * date is before today (Europe/Madrid for es accounts, UTC otherwise); the minute cron records
 * invoice.overdue once per invoice, the first time it is seen overdue.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiClient, client } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createCustomer, createInstruction } from "../../helpers/factories";
import { esIssuer, getInvoice, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { runCron } from "../../helpers/verifications";

const HOUR = 3_600_000;

const overdueEvents = async (api: ApiClient) =>
  (await api.get("/v1/events?type=invoice.overdue")).body.data as {
    related_object: { id: string };
    data: { object: Invoice };
  }[];

const setRow = (id: string, assignments: string) =>
  env.DB.prepare(`UPDATE invoices SET ${assignments} WHERE id = ?`).bind(id).run();

/** An es invoice due on `due_date`; with `draft`, a draft (the database keeps an issued one issued). */
async function esInvoiceDue(due_date: string, draft = false) {
  const { api, customer } = await esIssuer();
  const pmi = await createInstruction(api);
  const body = {
    customer: customer.id,
    lines: [ivaLine("100")],
    payment_terms: { due_date, options: [pmi.id] },
  };
  const invoice = draft
    ? ((await api.post("/v1/invoices", { draft: true, ...body })).body as Invoice)
    : await issue(api, body);
  return { api, invoice };
}

async function globalInvoiceDue(due_date: string) {
  const api = client((await createAccount({ taxRegime: "global" })).testKey);
  const customer = await createCustomer(api, {
    name: "Initech Inc",
    tax_id: { country: "US", type: "local", value: "US123456" },
  });
  const pmi = await createInstruction(api);
  const invoice = await issue(api, {
    customer: customer.id,
    lines: [{ description: "Work", quantity: "1", unit_price: "100", taxes: [] }],
    payment_terms: { due_date, options: [pmi.id] },
  });
  return { api, invoice };
}

describe("A scheduled job records invoice.overdue once per invoice, the first time it is seen overdue", () => {
  it("records invoice.overdue once per invoice, the first time it is seen overdue", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const { api, invoice } = await esInvoiceDue("2026-11-21");
    await runCron();
    expect(await overdueEvents(api)).toEqual([]);
    expect((await getInvoice(api, invoice.id)).overdue).toBe(false);
    clock.advance(48 * HOUR);
    expect((await getInvoice(api, invoice.id)).overdue).toBe(true);
    await runCron();
    const events = await overdueEvents(api);
    expect(events.map((e) => e.related_object.id)).toEqual([invoice.id]);
    expect(events[0]!.data.object).toMatchObject({ id: invoice.id, overdue: true, payment_status: "unpaid" });
    // Seen again on the next runs: never recorded twice.
    clock.advance(HOUR);
    await runCron();
    await runCron();
    expect(await overdueEvents(api)).toHaveLength(1);
  });

  it("overdue is judged on Europe/Madrid's today for es accounts, UTC's otherwise", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const es = await esInvoiceDue("2026-11-21");
    const global = await globalInvoiceDue("2026-11-21");
    // 23:30 UTC on the 22nd... no: 23:30 UTC on the 21st is 00:30 on the 22nd in Madrid.
    clock.set(Date.UTC(2026, 10, 21, 23, 30));
    expect((await getInvoice(es.api, es.invoice.id)).overdue).toBe(true);
    expect((await getInvoice(global.api, global.invoice.id)).overdue).toBe(false);
    await runCron();
    expect(await overdueEvents(es.api)).toHaveLength(1);
    expect(await overdueEvents(global.api)).toHaveLength(0);
    clock.set(Date.UTC(2026, 10, 22, 0, 1));
    await runCron();
    expect(await overdueEvents(global.api)).toHaveLength(1);
  });

  it("a partially_paid invoice is overdue; a paid one, a void one and a draft are not, and are never announced", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const partial = await esInvoiceDue("2026-11-21");
    const paid = await esInvoiceDue("2026-11-21");
    const draft = await esInvoiceDue("2026-11-21", true);
    await setRow(partial.invoice.id, "payment_status = 'partially_paid', amount_paid = 1");
    await setRow(
      paid.invoice.id,
      "payment_status = 'paid', amount_paid = amount_payable, paid_on = '2026-11-20'",
    );
    clock.advance(72 * HOUR);
    await runCron();
    expect((await overdueEvents(partial.api)).map((e) => e.related_object.id)).toEqual([partial.invoice.id]);
    expect(await overdueEvents(paid.api)).toEqual([]);
    expect(await overdueEvents(draft.api)).toEqual([]);
    expect((await getInvoice(paid.api, paid.invoice.id)).overdue).toBe(false);
    expect((await getInvoice(draft.api, draft.invoice.id)).overdue).toBe(false);
  });

  it("an invoice without a due date is never overdue", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    clock.advance(1000 * 24 * HOUR);
    await runCron();
    expect((await getInvoice(api, invoice.id)).overdue).toBe(false);
    expect(await overdueEvents(api)).toEqual([]);
  });

  it("the job's work per run is bounded: a backlog is announced 100 invoices a run, each once", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const { api, invoice } = await esInvoiceDue("2026-11-21");
    // 149 more copies of it, owed and due on the same day.
    const cols =
      "account_id, live, type, series, numbering, counter_key, issue_date, operation_date, supply_tax_date, withholding_tax_date, currency, customer_id, issuer, customer, lines, tax_breakdown, subtotal, total_tax_added, total_tax_withheld, total, amount_payable, payment_terms, corrected_by, notes, created_at, status, payment_status, due_date, verifactu_status";
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
       INSERT INTO invoices (id, counter, number, ${cols})
       SELECT substr(t.id, 1, 14) || printf('%016d', n.i), n.i, t.series || '-' || printf('%06d', n.i), ${cols
         .split(", ")
         .map((c) => `t.${c}`)
         .join(", ")} FROM n, invoices t WHERE t.id = ?`,
    )
      .bind(invoice.id)
      .run();
    clock.advance(48 * HOUR);
    await runCron();
    const count = async () =>
      (await env.DB.prepare(
        "SELECT count(*) AS n FROM events WHERE type = 'invoice.overdue' AND related_object_id IN (SELECT id FROM invoices WHERE customer_id = ?)",
      )
        .bind(invoice.customer!.id)
        .first<{ n: number }>())!.n;
    expect(await count()).toBe(100);
    await runCron();
    expect(await count()).toBe(150);
    await runCron();
    expect(await count()).toBe(150);
    expect((await api.get("/v1/invoices?overdue=true&limit=100")).body).toMatchObject({ has_more: true });
  });
});
