/**
 * POST /v1/invoices/{id}/payments (lifecycle.md "Payments"): the payment object, each field's
 * rule and its 400 with `param` (nothing written), the invoice's payment state after it, the
 * 404 and 409 refusals, and Idempotency-Key.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { client, expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createInstruction } from "../../helpers/factories";
import {
  customerWithAddress,
  getInvoice,
  type Invoice,
  type IssuerSetup,
  issue,
  ivaLine,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import {
  esInvoice,
  eventsAbout,
  globalInvoice,
  globalIssuer,
  type Payment,
  paid,
  pay,
  storedPayments,
} from "../../helpers/payments";
import { expectError } from "../../helpers/security";

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /v1/invoices/{id}/payments: the payment object", () => {
  it("records a payment and returns 201 with the whole payment object", async () => {
    const { api, account, invoice } = await esInvoice();
    const pmi = await createInstruction(api);
    const res = await pay(api, invoice.id, {
      amount: "50.00",
      paid_on: "2026-01-15",
      method: "card",
      reference: "INV-0001",
      payment_instruction: pmi.id,
    });
    expectStatus(res, 201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pay_[0-9A-Z]{26}$/),
      object: "payment",
      live: false,
      invoice: invoice.id,
      amount: "50.00",
      currency: "EUR",
      paid_on: "2026-01-15",
      method: "card",
      reference: "INV-0001",
      payment_instruction: pmi.id,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(await storedPayments(account.id)).toEqual({ n: 1, sum: 5000 });
  });

  it("method defaults to bank_transfer, reference and payment_instruction to null, paid_on to today", async () => {
    const { api, invoice } = await esInvoice();
    const payment = await paid(api, invoice.id, { amount: "1" });
    expect(payment).toMatchObject({
      amount: "1.00",
      method: "bank_transfer",
      reference: null,
      payment_instruction: null,
    });
    expect(payment.paid_on).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it("paid_on defaults to the account's today: Europe/Madrid for es (23:30 UTC is already tomorrow there)", async () => {
    const { api, invoice } = await esInvoice();
    useClock(Date.parse("2026-11-27T23:30:00Z"));
    expect((await paid(api, invoice.id, { amount: "1" })).paid_on).toBe("2026-11-28");
  });

  it("paid_on defaults to the account's today: UTC for global (23:30 UTC is still today)", async () => {
    const setup = await globalIssuer();
    const invoice = await globalInvoice(setup, "100");
    useClock(Date.parse("2026-11-27T23:30:00Z"));
    expect((await paid(setup.api, invoice.id, { amount: "1" })).paid_on).toBe("2026-11-27");
  });

  it("a live key records a live payment against a live invoice", async () => {
    const { account } = await esInvoice();
    const live = await readyLive(account);
    const customer = await customerWithAddress(live);
    const invoice = await issue(live, { customer: customer.id, lines: [ivaLine("100")] });
    expect((await paid(live, invoice.id, { amount: "10.00" })).live).toBe(true);
  });
});

describe("The invoice's payment state follows its payments", () => {
  it("a partial payment makes it partially_paid: amount_paid, amount_remaining, paid_on still null", async () => {
    const { api, invoice } = await esInvoice();
    expect(invoice).toMatchObject({
      payment_status: "unpaid",
      amount_paid: "0.00",
      amount_remaining: "121.00",
    });
    await paid(api, invoice.id, { amount: "21.00", paid_on: "2026-01-10" });
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "partially_paid",
      amount_paid: "21.00",
      amount_remaining: "100.00",
      paid_on: null,
    });
  });

  it("the payment that completes amount_payable makes it paid, with that payment's paid_on", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "21.00", paid_on: "2026-01-10" });
    await paid(api, invoice.id, { amount: "100.00", paid_on: "2026-01-12" });
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "paid",
      amount_paid: "121.00",
      amount_remaining: "0.00",
      paid_on: "2026-01-12",
      overdue: false,
    });
  });

  it("one payment of the whole amount_payable makes it paid at once", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "121", paid_on: "2026-02-01" });
    expect(await getInvoice(api, invoice.id)).toMatchObject({
      payment_status: "paid",
      paid_on: "2026-02-01",
    });
  });
});

describe("Field rules: each a 400 with param, nothing written", () => {
  let setup: IssuerSetup & { invoice: Invoice };
  beforeAll(async () => {
    setup = await esInvoice();
  });

  /** Refused with this error, no D1 row written, no payment stored. */
  async function expectRefused(body: unknown, code: string, param: string, invoice = setup.invoice.id) {
    const res = await request("POST", `/v1/invoices/${invoice}/payments`, body, {
      key: setup.account.testKey,
    });
    expectError(res, 400, code, param);
    expect(res.headers.get("D1-Rows-Written"), res.text).toBe("0");
    expect(await storedPayments(setup.account.id)).toEqual({ n: 0, sum: 0 });
    return res;
  }

  it("amount is required: 400 parameter_missing on amount", async () => {
    await expectRefused({}, "parameter_missing", "amount");
  });

  it.each([["0"], ["0.00"], ["-1.00"]])(
    "amount must be greater than 0: %s is 400 on amount",
    async (amount) => {
      await expectRefused({ amount }, "parameter_invalid", "amount");
    },
  );

  it.each([[50], ["1e3"], ["+5"], [".5"], ["05"], ["abc"], [""], [null]])(
    "amount must be a decimal string: %j is 400 on amount",
    async (amount) => {
      await expectRefused({ amount }, "parameter_invalid", "amount");
    },
  );

  it("amount has at most the currency's minor units: 10.001 EUR is 400 on amount", async () => {
    const res = await expectRefused({ amount: "10.001" }, "parameter_invalid", "amount");
    expect(res.body.error.message).toMatch(/2 decimals/);
  });

  it("amount has at most the currency's minor units: JPY takes none, BHD three", async () => {
    const g = await globalIssuer();
    const jpy = await globalInvoice(g, "1000", "JPY");
    const bhd = await globalInvoice(g, "10", "BHD");
    expectError(await pay(g.api, jpy.id, { amount: "1.5" }), 400, "parameter_invalid", "amount");
    expectError(await pay(g.api, bhd.id, { amount: "0.0001" }), 400, "parameter_invalid", "amount");
    expect(await paid(g.api, jpy.id, { amount: "300" })).toMatchObject({ amount: "300", currency: "JPY" });
    expect(await paid(g.api, bhd.id, { amount: "1.005" })).toMatchObject({
      amount: "1.005",
      currency: "BHD",
    });
    expect((await getInvoice(g.api, bhd.id)).amount_remaining).toBe("8.995");
  });

  it.each([["2026-02-30"], ["2026-1-05"], ["yesterday"], [20260105]])(
    "paid_on must be a calendar date YYYY-MM-DD: %j is 400 on paid_on",
    async (paid_on) => {
      await expectRefused({ amount: "1", paid_on }, "parameter_invalid", "paid_on");
    },
  );

  it("paid_on must not be in the future (the account's today): tomorrow is 400 on paid_on", async () => {
    useClock(Date.parse("2026-11-27T12:00:00Z"));
    await expectRefused({ amount: "1", paid_on: "2026-11-28" }, "parameter_invalid", "paid_on");
  });

  it("paid_on in the future is judged on the account's today: at 23:30 UTC, tomorrow's UTC date is today for es, the future for global", async () => {
    const es = await esInvoice();
    const g = await globalIssuer();
    const invoice = await globalInvoice(g, "10");
    useClock(Date.parse("2026-11-27T23:30:00Z"));
    expect((await paid(es.api, es.invoice.id, { amount: "1", paid_on: "2026-11-28" })).paid_on).toBe(
      "2026-11-28",
    );
    const res = await pay(g.api, invoice.id, { amount: "1", paid_on: "2026-11-28" });
    expectError(res, 400, "parameter_invalid", "paid_on");
  });

  it.each([["wire"], ["BANK_TRANSFER"], [""], [null]])(
    "method must be one of bank_transfer, card, cash, direct_debit, cheque, other: %j is 400 on method",
    async (method) => {
      await expectRefused({ amount: "1", method }, "parameter_invalid", "method");
    },
  );

  it("every method is accepted", async () => {
    const { api, invoice } = await esInvoice();
    for (const method of ["bank_transfer", "card", "cash", "direct_debit", "cheque", "other"]) {
      expect((await paid(api, invoice.id, { amount: "1", method })).method).toBe(method);
    }
  });

  it.each([["x".repeat(141)], [""], ["a\nb"], [5]])(
    "reference is a string of at most 140: %j is 400 on reference",
    async (reference) => {
      await expectRefused({ amount: "1", reference }, "parameter_invalid", "reference");
    },
  );

  it("reference may be 140 characters, or null", async () => {
    const { api, invoice } = await esInvoice();
    expect((await paid(api, invoice.id, { amount: "1", reference: "r".repeat(140) })).reference).toHaveLength(
      140,
    );
    expect((await paid(api, invoice.id, { amount: "1", reference: null })).reference).toBeNull();
  });

  it("payment_instruction must be a payment instruction of the account: an unknown id is 400 on payment_instruction", async () => {
    await expectRefused(
      { amount: "1", payment_instruction: "pmi_00000000000000000000000000" },
      "parameter_invalid",
      "payment_instruction",
    );
  });

  it("payment_instruction of another account, or of the other environment, is 400 on payment_instruction", async () => {
    const other = await createAccount();
    const theirs = await createInstruction(other.testKey);
    const live = await createInstruction(setup.account.liveKey);
    await expectRefused(
      { amount: "1", payment_instruction: theirs.id },
      "parameter_invalid",
      "payment_instruction",
    );
    await expectRefused(
      { amount: "1", payment_instruction: live.id },
      "parameter_invalid",
      "payment_instruction",
    );
  });

  it("an unknown field is 400 parameter_unknown naming it", async () => {
    await expectRefused({ amount: "1", currency: "EUR" }, "parameter_unknown", "currency");
  });
});

describe("Which invoices take payments", () => {
  it("an unknown invoice is 404 resource_missing", async () => {
    const { api } = await esInvoice();
    expectError(await pay(api, "inv_00000000000000000000000000", { amount: "1" }), 404, "resource_missing");
  });

  it("another account's invoice, or one of the other environment, is 404 and records nothing", async () => {
    const mine = await esInvoice();
    const other = await createAccount();
    const res = await pay(client(other.testKey), mine.invoice.id, { amount: "1" });
    expectError(res, 404, "resource_missing");
    expectError(
      await pay(client(mine.account.liveKey), mine.invoice.id, { amount: "1" }),
      404,
      "resource_missing",
    );
    expect(await storedPayments(mine.account.id)).toEqual({ n: 0, sum: 0 });
  });

  it.each([["draft"], ["void"]])(
    "a %s invoice is 409 invoice_not_payable and records nothing",
    async (status) => {
      const { api, account, customer, invoice: issued } = await esInvoice();
      // A real draft: the database refuses to turn an issued invoice back into one (migration 0033).
      const invoice =
        status === "draft"
          ? ((await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: [ivaLine()] }))
              .body as typeof issued)
          : issued;
      if (status === "void") {
        await env.DB.prepare("UPDATE invoices SET status = 'void' WHERE id = ?").bind(invoice.id).run();
      }
      const res = await pay(api, invoice.id, { amount: "1" });
      expectError(res, 409, "invoice_not_payable");
      expect(res.headers.get("D1-Rows-Written")).toBe("0");
      expect(await storedPayments(account.id)).toEqual({ n: 0, sum: 0 });
    },
  );

  it("an invoice whose amount_payable is ≤ 0 (payment_status not_applicable) is 409 payment_not_applicable", async () => {
    const g = await globalIssuer();
    const credit = await globalInvoice(g, "-50.00");
    expect(credit).toMatchObject({ payment_status: "not_applicable", amount_remaining: "0.00" });
    const res = await pay(g.api, credit.id, { amount: "1" });
    expectError(res, 409, "payment_not_applicable");
    expect(res.headers.get("D1-Rows-Written")).toBe("0");
    expect(await storedPayments(g.account.id)).toEqual({ n: 0, sum: 0 });
  });

  it("a payment beyond amount_remaining is 400 payment_exceeds_amount_remaining on amount, and records nothing", async () => {
    const { api, account, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "100.00" });
    const res = await pay(api, invoice.id, { amount: "21.01" });
    expectError(res, 400, "payment_exceeds_amount_remaining", "amount");
    expect(res.headers.get("D1-Rows-Written")).toBe("0");
    expect(await storedPayments(account.id)).toEqual({ n: 1, sum: 10000 });
    expect(await eventsAbout(api, "invoice.paid", invoice.id)).toHaveLength(0);
  });

  it("a paid invoice takes no more payments: 400 payment_exceeds_amount_remaining on amount", async () => {
    const { api, invoice } = await esInvoice();
    await paid(api, invoice.id, { amount: "121.00" });
    expectError(
      await pay(api, invoice.id, { amount: "0.01" }),
      400,
      "payment_exceeds_amount_remaining",
      "amount",
    );
  });

  it("an amount far beyond any invoice (10^12 in a 4-decimal currency) is 400 payment_exceeds_amount_remaining", async () => {
    const g = await globalIssuer();
    const clf = await globalInvoice(g, "10", "CLF");
    expectError(
      await pay(g.api, clf.id, { amount: "1000000000000" }),
      400,
      "payment_exceeds_amount_remaining",
      "amount",
    );
  });
});

describe("Idempotency-Key on POST /v1/invoices/{id}/payments", () => {
  it("a replayed payment records nothing: one payment row, one event, the first response replayed", async () => {
    const { account, invoice } = await esInvoice();
    const send = () =>
      request(
        "POST",
        `/v1/invoices/${invoice.id}/payments`,
        { amount: "10.00" },
        {
          key: account.testKey,
          headers: { "idempotency-key": `pay-${invoice.id}` },
        },
      );
    const first = await send();
    expectStatus(first, 201);
    const replay = await send();
    expectStatus(replay, 201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(await storedPayments(account.id)).toEqual({ n: 1, sum: 1000 });
    const api = client(account.testKey);
    expect(await eventsAbout(api, "payment.created", (first.body as Payment).id)).toHaveLength(1);
    expect((await getInvoice(api, invoice.id)).amount_paid).toBe("10.00");
  });
});
