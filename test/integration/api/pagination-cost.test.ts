import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, client, expectStatus } from "../../helpers/api";
import { createAccount, insertCustomers } from "../../helpers/factories";

const rowsRead = (res: ApiResponse) => Number(res.headers.get("D1-Rows-Read"));

describe("a list page reads O(limit) rows whatever the table size", () => {
  let api: ApiClient;
  let ids: string[];

  beforeAll(async () => {
    const account = await createAccount();
    // Another account's rows in the same table must not be read either.
    const other = await createAccount();
    await insertCustomers(other.id, 1_000);
    ids = await insertCustomers(account.id, 5_000, { country: (i) => (i % 10 === 0 ? "PT" : "ES") });
    api = client(account.testKey);
    // Warm the API-key cache so the pages below measure only the list queries.
    expectStatus(await api.get("/v1/customers?limit=1"), 200);
  }, 120_000);

  it.each([1, 25, 100])("the first page with limit %i reads at most limit + 1 rows", async (limit) => {
    const res = await api.get(`/v1/customers?limit=${limit}`);
    expectStatus(res, 200);
    expect(res.body.data).toHaveLength(limit);
    expect(rowsRead(res)).toBeGreaterThan(0);
    expect(rowsRead(res)).toBeLessThanOrEqual(limit + 1);
  });

  it("a page after a cursor deep in the list reads at most limit + 2 rows", async () => {
    const cursor = ids[2_500] as string;
    const res = await api.get(`/v1/customers?limit=25&starting_after=${cursor}`);
    expectStatus(res, 200);
    expect(res.body.data[0]!.id).toBe(ids[2_499]);
    expect(rowsRead(res)).toBeLessThanOrEqual(25 + 2);
  });

  it("a page before a cursor (ending_before) reads at most limit + 2 rows", async () => {
    const cursor = ids[100] as string;
    const res = await api.get(`/v1/customers?limit=25&ending_before=${cursor}`);
    expectStatus(res, 200);
    expect(res.body.data.at(-1)!.id).toBe(ids[101]);
    expect(rowsRead(res)).toBeLessThanOrEqual(25 + 2);
  });

  it("the last page reads only the rows that are left plus the cursor", async () => {
    const res = await api.get(`/v1/customers?limit=25&starting_after=${ids[10]}`);
    expectStatus(res, 200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.has_more).toBe(false);
    expect(rowsRead(res)).toBeLessThanOrEqual(10 + 1);
  });

  it("a page filtered by country reads at most limit + 2 rows", async () => {
    const first = await api.get("/v1/customers?limit=25&country=pt");
    expectStatus(first, 200);
    expect(first.body.data.every((c) => c.tax_id.country === "PT")).toBe(true);
    expect(rowsRead(first)).toBeLessThanOrEqual(25 + 1);
    const next = await api.get(
      `/v1/customers?limit=25&country=PT&starting_after=${first.body.data.at(-1)!.id}`,
    );
    expectStatus(next, 200);
    expect(rowsRead(next)).toBeLessThanOrEqual(25 + 2);
  });

  it("a selective search is driven by the trigram index: it reads the matches, not the account's rows", async () => {
    const res = await api.get("/v1/customers?q=LOCAL4321");
    expectStatus(res, 200);
    expect(res.body.data.map((c) => c.tax_id.value)).toEqual(["LOCAL4321"]);
    expect(rowsRead(res)).toBeLessThan(100);
  });

  it("a search page after a cursor stays driven by the matches", async () => {
    const first = await api.get("/v1/customers?q=Customer%20499&limit=5");
    expectStatus(first, 200);
    expect(first.body.data).toHaveLength(5);
    const next = await api.get(
      `/v1/customers?q=Customer%20499&limit=5&starting_after=${first.body.data.at(-1)!.id}`,
    );
    expectStatus(next, 200);
    expect(next.body.data).toHaveLength(5);
    // "Customer 499" and "Customer 4990".."Customer 4999": 11 matches, however many customers.
    expect(rowsRead(next)).toBeLessThan(200);
  });

  it("a retrieve reads one row", async () => {
    const res = await api.get(`/v1/customers/${ids[1234]}`);
    expectStatus(res, 200);
    expect(rowsRead(res)).toBe(1);
  });
});
