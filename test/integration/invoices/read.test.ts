/**
 * invoices.md "Reading" and decisions.md "Authentication and environments": GET
 * /v1/invoices/{id}, GET /v1/invoices with `customer`, `type` and `series` filters and the
 * shared pagination, isolation between accounts and environments, no update or delete, and
 * the D1 cost of a list page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, client, expectStatus, request } from "../../helpers/api";
import { createAccount, type TestAccount } from "../../helpers/factories";
import {
  customerWithAddress,
  getInvoice,
  type Invoice,
  issue,
  ivaLine,
  setProfile,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { expectError } from "../../helpers/security";
import type { Customer, List } from "../../helpers/types";

async function esAccount(): Promise<{ account: TestAccount; api: ApiClient; live: ApiClient }> {
  const account = await createAccount({ taxRegime: "es" });
  const api = client(account.testKey);
  await setProfile(api);
  const live = await readyLive(account);
  return { account, api, live };
}

async function list(api: ApiClient, query = ""): Promise<List<Invoice>> {
  const res = await api.get(`/v1/invoices${query}`);
  expectStatus(res, 200);
  return res.body as List<Invoice>;
}

const ids = (page: List<Invoice>) => page.data.map((i) => i.id);

describe("GET /v1/invoices: filters and the shared pagination", () => {
  let api: ApiClient;
  let c1: Customer;
  let c2: Customer;
  let liveCustomer: Customer;
  let strangerCustomer: Customer;
  let strangerInvoice: Invoice;
  let liveInvoice: Invoice;
  // Oldest first: i1 ordinary c1, i2 ordinary c2, i3 simplified (no customer), i4 ordinary c1
  // in series B, i5 simplified c2, i6 corrective of i1.
  let i: Invoice[];

  beforeAll(async () => {
    const own = await esAccount();
    api = own.api;
    c1 = await customerWithAddress(api);
    c2 = await customerWithAddress(api);
    const i1 = await issue(api, { customer: c1.id, lines: [ivaLine()] });
    const i2 = await issue(api, { customer: c2.id, lines: [ivaLine()] });
    const i3 = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const i4 = await issue(api, { customer: c1.id, series: "B", lines: [ivaLine()] });
    const i5 = await issue(api, { type: "simplified", customer: c2.id, lines: [ivaLine()] });
    const i6 = await issue(api, {
      type: "corrective",
      corrects: { invoice: i1.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    i = [i1, i2, i3, i4, i5, i6];
    // Data that must stay out of this environment's lists: the live environment's and another account's.
    liveCustomer = await customerWithAddress(own.live);
    liveInvoice = await issue(own.live, { customer: liveCustomer.id, lines: [ivaLine()] });
    const stranger = await esAccount();
    strangerCustomer = await customerWithAddress(stranger.api);
    strangerInvoice = await issue(stranger.api, { customer: strangerCustomer.id, lines: [ivaLine()] });
  });

  const at = (...n: number[]) => n.map((k) => i[k - 1]?.id);

  it("lists the environment's invoices newest first, in the list envelope, without other accounts' or environments'", async () => {
    const page = await list(api);
    expect({ object: page.object, url: page.url, has_more: page.has_more }).toEqual({
      object: "list",
      url: "/v1/invoices",
      has_more: false,
    });
    expect(ids(page)).toEqual(at(6, 5, 4, 3, 2, 1));
    expect(ids(page)).not.toContain(liveInvoice.id);
    expect(ids(page)).not.toContain(strangerInvoice.id);
    // Each item is the invoice as retrieve returns it.
    expect(page.data[0]).toStrictEqual(await getInvoice(api, i[5]!.id));
  });

  it("filters by customer", async () => {
    expect(ids(await list(api, `?customer=${c1.id}`))).toEqual(at(6, 4, 1));
    expect(ids(await list(api, `?customer=${c2.id}`))).toEqual(at(5, 2));
  });

  it("filters by type", async () => {
    expect(ids(await list(api, "?type=ordinary"))).toEqual(at(4, 2, 1));
    expect(ids(await list(api, "?type=simplified"))).toEqual(at(5, 3));
    expect(ids(await list(api, "?type=corrective"))).toEqual(at(6));
  });

  it("filters by series, uppercased like the series on input", async () => {
    expect(ids(await list(api, "?series=SIM"))).toEqual(at(5, 3));
    expect(ids(await list(api, "?series=sim"))).toEqual(at(5, 3));
    expect(ids(await list(api, "?series=B"))).toEqual(at(4));
    expect(ids(await list(api, "?series=NONE"))).toEqual([]);
  });

  it("filters combine", async () => {
    expect(ids(await list(api, `?customer=${c1.id}&type=ordinary`))).toEqual(at(4, 1));
    expect(ids(await list(api, `?customer=${c2.id}&series=SIM`))).toEqual(at(5));
    expect(ids(await list(api, `?customer=${c1.id}&type=simplified`))).toEqual([]);
  });

  it("a customer filter naming another account's or environment's customer lists nothing", async () => {
    expect(ids(await list(api, `?customer=${strangerCustomer.id}`))).toEqual([]);
    expect(ids(await list(api, `?customer=${liveCustomer.id}`))).toEqual([]);
  });

  it("invalid filters are 400 with their param", async () => {
    expectError(await api.get("/v1/invoices?type=credit"), 400, "parameter_invalid", "type");
    expectError(await api.get("/v1/invoices?series=A-B"), 400, "parameter_invalid", "series");
    expectError(await api.get("/v1/invoices?colour=red"), 400, "parameter_unknown", "colour");
  });

  it("limit pages forward with starting_after and has_more", async () => {
    const first = await list(api, "?limit=2");
    expect([ids(first), first.has_more]).toEqual([at(6, 5), true]);
    const second = await list(api, `?limit=2&starting_after=${i[4]!.id}`);
    expect([ids(second), second.has_more]).toEqual([at(4, 3), true]);
    const third = await list(api, `?limit=2&starting_after=${i[2]!.id}`);
    expect([ids(third), third.has_more]).toEqual([at(2, 1), false]);
  });

  it("ending_before pages backwards, newest first within the page", async () => {
    const page = await list(api, `?limit=2&ending_before=${i[1]!.id}`);
    expect([ids(page), page.has_more]).toEqual([at(4, 3), true]);
    const top = await list(api, `?limit=2&ending_before=${i[3]!.id}`);
    expect([ids(top), top.has_more]).toEqual([at(6, 5), false]);
  });

  it("pagination works within a filter", async () => {
    const first = await list(api, "?type=ordinary&limit=1");
    expect([ids(first), first.has_more]).toEqual([at(4), true]);
    const next = await list(api, `?type=ordinary&limit=1&starting_after=${i[3]!.id}`);
    expect([ids(next), next.has_more]).toEqual([at(2), true]);
    const last = await list(api, `?type=ordinary&limit=2&starting_after=${i[1]!.id}`);
    expect([ids(last), last.has_more]).toEqual([at(1), false]);
  });

  it("limit out of range and both cursors are 400", async () => {
    for (const limit of ["0", "101", "abc", "-1"]) {
      expectError(await api.get(`/v1/invoices?limit=${limit}`), 400, "parameter_invalid", "limit");
    }
    const both = await api.get(`/v1/invoices?starting_after=${i[4]!.id}&ending_before=${i[1]!.id}`);
    expectError(both, 400, "parameter_invalid", "ending_before");
  });

  it("another account's invoice, a live invoice or an invoice outside the filter is not a valid cursor: 400", async () => {
    expectError(
      await api.get(`/v1/invoices?starting_after=${strangerInvoice.id}`),
      400,
      "parameter_invalid",
      "starting_after",
    );
    expectError(
      await api.get(`/v1/invoices?ending_before=${liveInvoice.id}`),
      400,
      "parameter_invalid",
      "ending_before",
    );
    expectError(
      await api.get(`/v1/invoices?customer=${c2.id}&starting_after=${i[0]!.id}`),
      400,
      "parameter_invalid",
      "starting_after",
    );
    expectError(
      await api.get(`/v1/invoices?starting_after=${c1.id}`),
      400,
      "parameter_invalid",
      "starting_after",
    );
  });
});

describe("GET /v1/invoices/{id}: other accounts and environments do not exist", () => {
  it("another account's invoice is 404 resource_missing, naming the id", async () => {
    const owner = await esAccount();
    const customer = await customerWithAddress(owner.api);
    const inv = await issue(owner.api, { customer: customer.id, lines: [ivaLine()] });
    const stranger = await esAccount();
    const res = await stranger.api.get(`/v1/invoices/${inv.id}`);
    expectError(res, 404, "resource_missing");
    expect(res.body.error.message).toContain(inv.id);
  });

  it("a test invoice is 404 for the live key, and a live invoice 404 for the test key", async () => {
    const { api, live } = await esAccount();
    const testInv = await issue(api, { customer: (await customerWithAddress(api)).id, lines: [ivaLine()] });
    const liveInv = await issue(live, { customer: (await customerWithAddress(live)).id, lines: [ivaLine()] });
    expect([testInv.live, liveInv.live]).toEqual([false, true]);
    expectError(await live.get(`/v1/invoices/${testInv.id}`), 404, "resource_missing");
    expectError(await api.get(`/v1/invoices/${liveInv.id}`), 404, "resource_missing");
    expect((await getInvoice(live, liveInv.id)).live).toBe(true);
  });

  it("an unknown id is 404 resource_missing", async () => {
    const { api } = await esAccount();
    for (const id of ["inv_00000000000000000000000000", "nope", "cus_00000000000000000000000000"]) {
      expectError(await api.get(`/v1/invoices/${id}`), 404, "resource_missing");
    }
  });
});

describe("Test and live never mix in references", () => {
  it("a live invoice cannot name a test customer: 400 parameter_invalid customer", async () => {
    const { api, live } = await esAccount();
    const testCustomer = await customerWithAddress(api);
    const res = await live.post("/v1/invoices", { customer: testCustomer.id, lines: [ivaLine()] });
    expectError(res, 400, "parameter_invalid", "customer");
    const simplified = await live.post("/v1/invoices", {
      type: "simplified",
      customer: testCustomer.id,
      lines: [ivaLine()],
    });
    expectError(simplified, 400, "parameter_invalid", "customer");
  });

  it("a test invoice cannot name a live customer, nor another account's customer", async () => {
    const { api, live } = await esAccount();
    const liveCustomer = await customerWithAddress(live);
    expectError(
      await api.post("/v1/invoices", { customer: liveCustomer.id, lines: [ivaLine()] }),
      400,
      "parameter_invalid",
      "customer",
    );
    const stranger = await esAccount();
    const theirs = await customerWithAddress(stranger.api);
    expectError(
      await api.post("/v1/invoices", { customer: theirs.id, lines: [ivaLine()] }),
      400,
      "parameter_invalid",
      "customer",
    );
  });
});

describe("An issued invoice is never updated or deleted", () => {
  it.each([
    ["PATCH", { notes: "changed" }],
    ["DELETE", undefined],
  ] as const)(
    "%s /v1/invoices/{id} of an issued invoice is 409 invoice_not_draft and changes nothing",
    async (method, body) => {
      const { api, account } = await esAccount();
      const inv = await issue(api, { customer: (await customerWithAddress(api)).id, lines: [ivaLine()] });
      const res = await request(method, `/v1/invoices/${inv.id}`, body, { key: account.testKey });
      expectError(res, 409, "invoice_not_draft");
      expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    },
  );

  it.each([
    ["PUT", { notes: "changed" }],
    ["POST", { notes: "changed" }],
  ] as const)(
    "%s /v1/invoices/{id} is 404 or 405 with the API error envelope and changes nothing",
    async (method, body) => {
      const { api, account } = await esAccount();
      const inv = await issue(api, { customer: (await customerWithAddress(api)).id, lines: [ivaLine()] });
      const res = await request(method, `/v1/invoices/${inv.id}`, body, { key: account.testKey });
      expect([404, 405], res.text).toContain(res.status);
      if (res.status === 404) expectError(res, 404, "resource_missing");
      else {
        expect(res.headers.get("content-type"), res.text).toMatch(/^application\/json/);
        expect(res.body, res.text).toMatchObject({
          error: {
            type: "invalid_request_error",
            code: expect.any(String),
            request_id: expect.stringMatching(/^req_/),
          },
        });
      }
      expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    },
  );
});

const rowsRead = (res: ApiResponse) => Number(res.headers.get("D1-Rows-Read"));

describe("A list page reads O(limit) rows (D1-Rows-Read ≤ limit + 2)", () => {
  let api: ApiClient;
  let sparse: Customer;
  let all: Invoice[];

  beforeAll(async () => {
    const own = await esAccount();
    api = own.api;
    const dense = await customerWithAddress(api);
    sparse = await customerWithAddress(api);
    all = [];
    // 40 invoices: every 10th is simplified to the sparse customer, every 10th (offset 5) is
    // in series Q; the rest are ordinary INV to the dense customer.
    for (let n = 0; n < 40; n++) {
      const body =
        n % 10 === 0
          ? { type: "simplified", customer: sparse.id, lines: [ivaLine()] }
          : n % 10 === 5
            ? { customer: dense.id, series: "Q", lines: [ivaLine()] }
            : { customer: dense.id, lines: [ivaLine()] };
      all.push(await issue(api, body));
    }
    // Another account's invoices in the same table must not be read either.
    const other = await esAccount();
    const theirs = await customerWithAddress(other.api);
    for (let n = 0; n < 20; n++) await issue(other.api, { customer: theirs.id, lines: [ivaLine()] });
    // Warm the API-key cache so the pages below measure only the list queries.
    expectStatus(await api.get("/v1/invoices?limit=1"), 200);
  }, 120_000);

  it.each([1, 5, 25])("the first page with limit %i reads at most limit + 2 rows", async (limit) => {
    const res = await api.get(`/v1/invoices?limit=${limit}`);
    expectStatus(res, 200);
    expect((res.body as List<Invoice>).data).toHaveLength(limit);
    expect(rowsRead(res)).toBeGreaterThan(0);
    expect(rowsRead(res)).toBeLessThanOrEqual(limit + 2);
  });

  it("a page after a cursor deep in the list reads at most limit + 2 rows", async () => {
    const res = await api.get(`/v1/invoices?limit=5&starting_after=${all[20]!.id}`);
    expectStatus(res, 200);
    expect(ids(res.body as List<Invoice>)).toEqual(
      all
        .slice(15, 20)
        .map((x) => x.id)
        .reverse(),
    );
    expect(rowsRead(res)).toBeLessThanOrEqual(5 + 2);
  });

  it("a page before a cursor (ending_before) reads at most limit + 2 rows", async () => {
    const res = await api.get(`/v1/invoices?limit=5&ending_before=${all[10]!.id}`);
    expectStatus(res, 200);
    expect(ids(res.body as List<Invoice>)).toEqual(
      all
        .slice(11, 16)
        .map((x) => x.id)
        .reverse(),
    );
    expect(rowsRead(res)).toBeLessThanOrEqual(5 + 2);
  });

  it.each([
    ["customer", () => `customer=${sparse.id}`],
    ["type", () => "type=simplified"],
    ["series", () => "series=Q"],
  ])(
    "a page filtered by %s (4 matches in 40) reads at most limit + 2 rows, also after a cursor",
    async (_, filter) => {
      const first = await api.get(`/v1/invoices?limit=2&${filter()}`);
      expectStatus(first, 200);
      const page = first.body as List<Invoice>;
      expect([page.data.length, page.has_more]).toEqual([2, true]);
      expect(rowsRead(first)).toBeLessThanOrEqual(2 + 2);
      const next = await api.get(`/v1/invoices?limit=2&${filter()}&starting_after=${page.data[1]!.id}`);
      expectStatus(next, 200);
      expect((next.body as List<Invoice>).data).toHaveLength(2);
      expect(rowsRead(next)).toBeLessThanOrEqual(2 + 2);
    },
  );

  it("a retrieve reads one row", async () => {
    const res = await api.get(`/v1/invoices/${all[7]!.id}`);
    expectStatus(res, 200);
    expect(rowsRead(res)).toBe(1);
  });
});
