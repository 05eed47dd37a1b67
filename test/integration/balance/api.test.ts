/**
 * GET /v1/balance, GET /v1/balance-transactions (filter `type`, shared pagination) and
 * GET /v1/balance-transactions/{id}: the caller's account and environment only.
 */
import { describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { available, topUp, transactions } from "../../helpers/balance";
import { createAccount } from "../../helpers/factories";
import { esIssuer, issue, ivaLine } from "../../helpers/invoices";
import { describeAuthMatrix, expectError } from "../../helpers/security";
import type { List } from "../../helpers/types";

/** A top-up in the account and environment of `key` (the matrix creates with the key it gets). */
const topUpFor = async (key: string) => {
  const me = await client(key).get("/v1/account");
  expectStatus(me, 200);
  const [row] = await topUp(me.body.id, me.body.live, 100);
  return row?.id as string;
};

describe("GET /v1/balance", () => {
  it("a fresh environment's balance is 0.00 EUR", async () => {
    const account = await createAccount();
    const res = await client(account.testKey).get("/v1/balance");
    expectStatus(res, 200);
    expect(res.body).toEqual({ object: "balance", live: false, currency: "EUR", available: "0.00" });
  });

  it("test and live never mix: each environment has its own balance and transactions", async () => {
    const { account, api, customer } = await esIssuer();
    const live = client(account.liveKey);
    await topUp(account.id, true, 2_500);
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(await available(api)).toBe("-0.10");
    expect((await live.get("/v1/balance")).body).toEqual({
      object: "balance",
      live: true,
      currency: "EUR",
      available: "25.00",
    });
    expect((await transactions(api)).map((t) => [t.type, t.live])).toEqual([["usage", false]]);
    expect((await transactions(live)).map((t) => [t.type, t.live])).toEqual([["top_up", true]]);
  });

  it("another account's transactions do not move the caller's balance", async () => {
    const mine = await createAccount();
    const other = await createAccount();
    await topUp(other.id, false, 999);
    expect(await available(client(mine.testKey))).toBe("0.00");
  });
});

describe("GET /v1/balance-transactions", () => {
  it("lists newest first and filters by type", async () => {
    const { account, api, customer } = await esIssuer();
    const [credit] = await topUp(account.id, false, 1_000);
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const all = await transactions(api);
    expect(all.map((t) => t.type)).toEqual(["usage", "top_up"]);
    expect(all[0]?.description).toContain(invoice.id);
    expect((await transactions(api, "&type=top_up")).map((t) => t.id)).toEqual([credit?.id]);
    expect((await transactions(api, "&type=usage")).map((t) => t.amount)).toEqual(["-0.10"]);
  });

  it("pages with limit, starting_after and ending_before (shared pagination)", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    for (const cents of [100, 200, 300]) await topUp(account.id, false, cents);
    const all = (await transactions(api)).map((t) => t.id);
    const first = await api.get("/v1/balance-transactions?limit=2");
    expectStatus(first, 200);
    const page1 = first.body as List<{ id: string }>;
    expect([page1.data.map((t) => t.id), page1.has_more]).toEqual([all.slice(0, 2), true]);
    const next = await api.get(`/v1/balance-transactions?limit=2&starting_after=${all[1]}`);
    expect((next.body as List<{ id: string }>).data.map((t) => t.id)).toEqual(all.slice(2));
    const back = await api.get(`/v1/balance-transactions?limit=2&ending_before=${all[2]}`);
    expect((back.body as List<{ id: string }>).data.map((t) => t.id)).toEqual(all.slice(0, 2));
  });

  it("an unknown type is 400 parameter_invalid with param type", async () => {
    const res = await client((await createAccount()).testKey).get("/v1/balance-transactions?type=refund");
    expectError(res, 400, "parameter_invalid", "type");
  });

  it("an unknown query parameter is 400 parameter_unknown", async () => {
    const res = await client((await createAccount()).testKey).get("/v1/balance-transactions?currency=EUR");
    expectError(res, 400, "parameter_unknown", "currency");
  });

  it("another environment's transaction is rejected as a cursor", async () => {
    const account = await createAccount();
    const [row] = await topUp(account.id, true, 100);
    const res = await client(account.testKey).get(`/v1/balance-transactions?starting_after=${row?.id}`);
    expectError(res, 400, "parameter_invalid", "starting_after");
  });
});

describe("GET /v1/balance-transactions/{id}", () => {
  it("retrieves the caller's transaction", async () => {
    const account = await createAccount();
    const [row] = await topUp(account.id, false, 4_200, "Credit note 7");
    const res = await client(account.testKey).get(`/v1/balance-transactions/${row?.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      id: row?.id,
      object: "balance_transaction",
      live: false,
      type: "top_up",
      amount: "42.00",
      currency: "EUR",
      balance_after: "42.00",
      description: "Credit note 7",
      source_event: null,
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it("an unknown id is 404 resource_missing", async () => {
    const res = await client((await createAccount()).testKey).get("/v1/balance-transactions/btx_nope");
    expectError(res, 404, "resource_missing");
  });
});

describeAuthMatrix({ method: "GET", path: () => "/v1/balance" });
describeAuthMatrix({ method: "GET", path: () => "/v1/balance-transactions" });
describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/balance-transactions/${id}`,
  create: topUpFor,
  read: async (key, id) => (await client(key).get(`/v1/balance-transactions/${id}`)).body,
});
