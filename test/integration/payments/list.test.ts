/** GET /v1/payments (filter invoice, shared pagination) and GET /v1/payments/{id}, per account and environment. */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, client, expectStatus } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";
import { type Invoice, type IssuerSetup, issue, ivaLine } from "../../helpers/invoices";
import { esInvoice, type Payment, paid } from "../../helpers/payments";
import { expectError } from "../../helpers/security";
import type { List } from "../../helpers/types";

const ids = (res: ApiResponse) => (res.body as List<Payment>).data.map((p) => p.id);

describe("GET /v1/payments and GET /v1/payments/{id}", () => {
  let setup: IssuerSetup & { invoice: Invoice };
  let second: Invoice;
  const made: Payment[] = [];
  beforeAll(async () => {
    setup = await esInvoice();
    second = await issue(setup.api, { customer: setup.customer.id, lines: [ivaLine("100")] });
    for (let i = 0; i < 3; i++) made.push(await paid(setup.api, setup.invoice.id, { amount: "1.00" }));
    for (let i = 0; i < 2; i++) made.push(await paid(setup.api, second.id, { amount: "2.00" }));
  });

  it("a payment reads back exactly as it was returned", async () => {
    const res = await setup.api.get(`/v1/payments/${made[0]?.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual(made[0]);
  });

  it("the list holds the account's payments, newest first, in the list envelope", async () => {
    const res = await setup.api.get("/v1/payments");
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ object: "list", url: "/v1/payments", has_more: false });
    expect(ids(res)).toEqual(made.map((p) => p.id).reverse());
  });

  it("filter invoice: only that invoice's payments, newest first", async () => {
    const res = await setup.api.get(`/v1/payments?invoice=${second.id}`);
    expectStatus(res, 200);
    expect(ids(res)).toEqual(
      made
        .slice(3)
        .map((p) => p.id)
        .reverse(),
    );
    const none = await setup.api.get("/v1/payments?invoice=inv_00000000000000000000000000");
    expect(ids(none)).toEqual([]);
  });

  it("pagination: limit, starting_after and ending_before walk the list with has_more", async () => {
    const all = made.map((p) => p.id).reverse();
    const first = await setup.api.get("/v1/payments?limit=2");
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect((first.body as List<Payment>).has_more).toBe(true);
    const next = await setup.api.get(`/v1/payments?limit=2&starting_after=${all[1]}`);
    expect(ids(next)).toEqual(all.slice(2, 4));
    const last = await setup.api.get(`/v1/payments?limit=2&starting_after=${all[3]}`);
    expect(ids(last)).toEqual(all.slice(4));
    expect((last.body as List<Payment>).has_more).toBe(false);
    const back = await setup.api.get(`/v1/payments?limit=2&ending_before=${all[2]}`);
    expect(ids(back)).toEqual(all.slice(0, 2));
    const filtered = await setup.api.get(
      `/v1/payments?invoice=${setup.invoice.id}&limit=1&starting_after=${made[2]?.id}`,
    );
    expect(ids(filtered)).toEqual([made[1]?.id]);
  });

  it("a cursor outside the list (another invoice's payment under the filter) is 400 on starting_after", async () => {
    const res = await setup.api.get(`/v1/payments?invoice=${second.id}&starting_after=${made[0]?.id}`);
    expectError(res, 400, "parameter_invalid", "starting_after");
  });

  it("a page reads O(limit) rows (D1-Rows-Read ≤ limit + 2), with and without the invoice filter", async () => {
    for (const path of ["/v1/payments?limit=1", `/v1/payments?limit=1&invoice=${setup.invoice.id}`]) {
      const res = await setup.api.get(path);
      expectStatus(res, 200);
      expect(Number(res.headers.get("D1-Rows-Read")), path).toBeLessThanOrEqual(3);
    }
  });

  it("payments of another account are 404 and absent from its lists", async () => {
    const other = client((await createAccount()).testKey);
    expectError(await other.get(`/v1/payments/${made[0]?.id}`), 404, "resource_missing");
    expect(ids(await other.get("/v1/payments"))).toEqual([]);
    expect(ids(await other.get(`/v1/payments?invoice=${setup.invoice.id}`))).toEqual([]);
  });

  it("payments of the other environment (the live key) are 404 and absent from its lists", async () => {
    const live = client(setup.account.liveKey);
    expectError(await live.get(`/v1/payments/${made[0]?.id}`), 404, "resource_missing");
    expect(ids(await live.get("/v1/payments"))).toEqual([]);
  });

  it("an unknown payment is 404 resource_missing", async () => {
    expectError(await setup.api.get("/v1/payments/pay_00000000000000000000000000"), 404, "resource_missing");
  });
});
