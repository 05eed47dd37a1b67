/**
 * compliance.md, "The usage balance": an append-only ledger per account and environment,
 * debited by every issued invoice in the invoice's own batch, credited by operators'
 * top-ups (scripts/balance-top-up.sql, run here as the script runs it), read through
 * GET /v1/balance and /v1/balance-transactions.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { client, expectStatus, request } from "../../helpers/api";
import { available, chain, topUp, transactions } from "../../helpers/balance";
import { useClock } from "../../helpers/clock";
import { createAccount } from "../../helpers/factories";
import { esIssuer, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { listEvents } from "../../helpers/reads";
import { dbSnapshot, expectError } from "../../helpers/security";

const issuedEventOf = async (api: Parameters<typeof listEvents>[0], invoiceId: string) => {
  const events = (await listEvents(api, `?related_object=${invoiceId}&type=invoice.issued`)).data;
  expect(events).toHaveLength(1);
  return events[0]?.id;
};

describe("Usage debit: each issued invoice debits USAGE_PRICE_INVOICE in its own batch", () => {
  it("issuing an invoice debits 0.10 with source_event = the invoice's invoice.issued event", async () => {
    const { account, api, customer } = await esIssuer();
    await topUp(account.id, false, 5_000);
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const [debit] = await transactions(api, "&type=usage");
    expect(debit).toEqual({
      id: expect.stringMatching(/^btx_/),
      object: "balance_transaction",
      live: false,
      type: "usage",
      amount: "-0.10",
      currency: "EUR",
      balance_after: "49.90",
      description: `Invoice ${invoice.id} issued`,
      source_event: await issuedEventOf(api, invoice.id),
      created_at: invoice.created_at,
    });
    expect(await available(api)).toBe("49.90");
  });

  it("30 concurrent invoice issues leave the balance exactly 30 × price lower and balance_after forms one chain", async () => {
    const { account, api, customer } = await esIssuer();
    await topUp(account.id, false, 10_000);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] }),
      ),
    );
    for (const res of responses) expect(res.status, res.text).toBe(201);
    expect(await available(api)).toBe("97.00");

    const rows = await chain(account.id, false);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    let balance = 0;
    for (const row of rows) {
      balance += row.amount;
      expect(row.balance_after, JSON.stringify(row)).toBe(balance);
    }
    // One debit per invoice, each naming its own invoice.issued event.
    const issued = (await listEvents(api, "?type=invoice.issued&limit=100")).data.map((e) => e.id);
    expect(
      rows
        .slice(1)
        .map((r) => r.source_event)
        .sort(),
    ).toEqual(issued.sort());
  });

  it("an Idempotency-Key replay debits nothing", async () => {
    const { api, account, customer } = await esIssuer();
    const body = { customer: customer.id, lines: [ivaLine()] };
    const send = () =>
      request("POST", "/v1/invoices", body, {
        key: account.testKey,
        headers: { "idempotency-key": "issue-1" },
      });
    const first = await send();
    expect(first.status).toBe(201);
    const before = await dbSnapshot();
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await dbSnapshot()).toBe(before);
    expect(await transactions(api)).toHaveLength(1);
    expect(await available(api)).toBe("-0.10");
  });

  it("a rejected invoice (400) debits nothing", async () => {
    const { account, api, customer } = await esIssuer();
    await topUp(account.id, false, 100);
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [{ ...ivaLine(), quantity: "0" }],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.quantity");
    expect(await dbSnapshot()).toBe(before);
    expect(await available(api)).toBe("1.00");
  });

  it("issuing is not blocked by a negative balance", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(await available(api)).toBe("-0.20");
  });

  it("a corrective invoice is an issued invoice: it debits too", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await issue(api, {
      type: "corrective",
      customer: customer.id,
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-100")],
    });
    expect((await transactions(api, "&type=usage")).map((t) => t.amount)).toEqual(["-0.10", "-0.10"]);
  });

  it("the debit records billing.balance_transaction.created, its data the transaction as retrieved", async () => {
    // A stopped clock: the invoice, its debit and their events share one timestamp exactly.
    useClock(Date.now());
    const { account, api, customer } = await esIssuer();
    await topUp(account.id, false, 1);
    const invoice: Invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const [debit] = await transactions(api, "&type=usage");
    expect(debit?.balance_after).toBe("-0.09");
    const events = (await listEvents(api, `?related_object=${debit?.id}`)).data;
    expect(events.map((e) => [e.type, e.related_object])).toEqual([
      [
        "billing.balance_transaction.created",
        { id: debit?.id, type: "balance_transaction", url: `/v1/balance-transactions/${debit?.id}` },
      ],
    ]);
    expect(events[0]?.data.object).toStrictEqual(debit);
    expect(events[0]?.created_at).toBe(invoice.created_at);
  });
});

describe("Top-ups: npm run balance:top-up (scripts/balance-top-up.sql)", () => {
  it("a top-up credits the amount and chains on the balance", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const [first] = await topUp(account.id, false, 5_000, "Welcome credit");
    expect(first?.balance_after).toBe(5_000);
    const [second] = await topUp(account.id, false, 1_234);
    expect(second?.balance_after).toBe(6_234);
    expect(await available(api)).toBe("62.34");
    const [newest] = await transactions(api);
    expect(newest).toMatchObject({
      type: "top_up",
      amount: "12.34",
      balance_after: "62.34",
      source_event: null,
    });
  });

  it("a top-up records billing.balance_transaction.created, its data the transaction as retrieved", async () => {
    const account = await createAccount();
    const api = client(account.liveKey);
    const [row] = await topUp(account.id, true, 5_000, "Welcome credit");
    const retrieved = await api.get(`/v1/balance-transactions/${row?.id}`);
    expectStatus(retrieved, 200);
    const [event] = (await listEvents(api, `?related_object=${row?.id}`)).data;
    expect(event?.type).toBe("billing.balance_transaction.created");
    expect(event?.live).toBe(true);
    expect(event?.data.object).toStrictEqual(retrieved.body);
  });

  it("a top-up of an unknown account writes nothing", async () => {
    await createAccount();
    const before = await dbSnapshot();
    expect(await topUp("acct_00000000000000000000000000", false, 100)).toEqual([]);
    expect(await dbSnapshot()).toBe(before);
  });

  it("the ledger is append-only: UPDATE and DELETE are refused", async () => {
    const account = await createAccount();
    const [row] = await topUp(account.id, false, 100);
    const update = env.DB.prepare("UPDATE balance_transactions SET amount = 1 WHERE id = ?").bind(row?.id);
    await expect(update.run()).rejects.toThrow(/append_only/);
    const del = env.DB.prepare("DELETE FROM balance_transactions WHERE id = ?").bind(row?.id);
    await expect(del.run()).rejects.toThrow(/append_only/);
  });
});
