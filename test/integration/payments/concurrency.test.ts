/**
 * lifecycle.md: "The sum of an invoice's payments never exceeds its amount_payable, also under
 * concurrent requests." The guard is in the write itself (one D1 batch), not a read before it:
 * 20 rounds of 20 concurrent payments, and the exact race (a payment committed between a
 * request's read and its write) forced at the batch boundary.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nowIso } from "../../../src/lib/clock";
import { newId } from "../../../src/lib/ids";
import { expectStatus } from "../../helpers/api";
import { beforeBatches, failingWith } from "../../helpers/db";
import { getInvoice } from "../../helpers/invoices";
import { esInvoice, eventsAbout, pay, storedPayments } from "../../helpers/payments";
import { expectError } from "../../helpers/security";

const ROUNDS = Array.from({ length: 20 }, (_, i) => i + 1);

describe("20 concurrent payments that together exceed amount_payable", () => {
  it.each(ROUNDS)(
    "round %i of 20: the sum recorded never exceeds amount_payable; the successes are 201, the rest 400 payment_exceeds_amount_remaining",
    async () => {
      // 121.00 payable; 20 × 12.10 = 242.00: exactly 10 fit.
      const { api, account, invoice } = await esInvoice();
      const responses = await Promise.all(ROUNDS.map(() => pay(api, invoice.id, { amount: "12.10" })));
      const created = responses.filter((r) => r.status === 201);
      for (const res of responses) {
        if (res.status !== 201) expectError(res, 400, "payment_exceeds_amount_remaining", "amount");
      }
      const stored = await storedPayments(account.id, invoice.id);
      expect(stored.sum).toBeLessThanOrEqual(12100);
      expect(stored).toEqual({ n: created.length, sum: created.length * 1210 });
      expect(created).toHaveLength(10);
      expect(await getInvoice(api, invoice.id)).toMatchObject({
        payment_status: "paid",
        amount_paid: "121.00",
        amount_remaining: "0.00",
      });
      expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(1);
    },
  );
});

describe("The guard is in the write, not in the read before it", () => {
  afterEach(() => vi.restoreAllMocks());

  /** Runs `commit` (a concurrent change) right before the request's write batch, once. */
  function beforeTheWrite(commit: () => Promise<unknown>) {
    let done = false;
    beforeBatches(async (statements) => {
      if (done || !statements.includes('insert into "payments"')) return;
      done = true;
      await commit();
    });
  }

  it("a payment committed between the request's read and its write: the request is 400 payment_exceeds_amount_remaining and records nothing", async () => {
    const { api, account, invoice } = await esInvoice();
    // Another payment of 100.00 and its invoice update, in one batch, as the API writes them.
    beforeTheWrite(() =>
      env.DB.batch([
        env.DB.prepare(
          `INSERT INTO payments (id, account_id, live, invoice_id, amount, currency, paid_on, method, created_at)
           VALUES (?, ?, 0, ?, 10000, 'EUR', '2026-01-01', 'cash', ?)`,
        ).bind(newId("payment"), account.id, invoice.id, nowIso()),
        env.DB.prepare(
          "UPDATE invoices SET amount_paid = amount_paid + 10000, payment_status = 'partially_paid' WHERE id = ?",
        ).bind(invoice.id),
      ]),
    );
    // Its read saw 121.00 remaining: 50.00 passed it.
    const res = await pay(api, invoice.id, { amount: "50.00" });
    expectError(res, 400, "payment_exceeds_amount_remaining", "amount");
    expect(res.body.error.message).toMatch(/21\.00/);
    expect(await storedPayments(account.id)).toEqual({ n: 1, sum: 10000 });
    expect((await getInvoice(api, invoice.id)).amount_paid).toBe("100.00");
    const events = await env.DB.prepare(
      "SELECT count(*) AS n FROM events WHERE account_id = ? AND type = 'payment.created'",
    )
      .bind(account.id)
      .first<number>("n");
    expect(events).toBe(0);
  });

  it("an invoice voided between the request's read and its write: 409 invoice_not_payable, nothing recorded", async () => {
    const { api, account, invoice } = await esInvoice();
    beforeTheWrite(() =>
      env.DB.prepare("UPDATE invoices SET status = 'void' WHERE id = ?").bind(invoice.id).run(),
    );
    const res = await pay(api, invoice.id, { amount: "50.00" });
    expectError(res, 409, "invoice_not_payable");
    expect(await storedPayments(account.id)).toEqual({ n: 0, sum: 0 });
    expect((await getInvoice(api, invoice.id)).amount_paid).toBe("0.00");
  });

  it("invoice.paid commits with the payment that completes the invoice: when a later statement of its batch fails, neither is there", async () => {
    const { api, account, invoice } = await esInvoice();
    const res = await failingWith("BEFORE UPDATE OF amount_paid ON invoices", () =>
      pay(api, invoice.id, { amount: "121.00" }),
    );
    expectError(res, 500, "api_error");
    expect(await storedPayments(account.id)).toEqual({ n: 0, sum: 0 });
    expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(0);
    expect((await getInvoice(api, invoice.id)).payment_status).toBe("unpaid");
    // The same payment, the failure gone, records all three.
    expectStatus(await pay(api, invoice.id, { amount: "121.00" }), 201);
    expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(1);
  });
});
