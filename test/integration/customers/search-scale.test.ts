/**
 * Search that scales per tenant (issue 15): the index narrows to the caller's account and
 * environment before it enumerates matches. At 100,000 customers, with 10 other tenants
 * holding the same terms, asserted through D1's own rows_read (the D1-Rows-Read header): a
 * one-match search reads at most 10 rows, and any first page of any `q` at most 2,000.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { client } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";

const TENANT_SIZE = 100_000;
const OTHER_TENANTS = 10;
const OTHER_SIZE = 2_000;

/** `count` customers of one account and environment, named like a real book, in one statement. */
async function seed(accountId: string, tag: string, count: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO customers (id, account_id, live, name, invoice_prefix, email, tax_id_id, tax_id_country,
       tax_id_type, tax_id_value, tax_id_created_at, filter_country, created_at, updated_at)
     SELECT 'cus_' || ?3 || printf('%024d', i), ?1, 0, 'Acme Customer ' || i,
       ?3 || printf('%07d', i), 'billing' || i || '@example.com', 'txi_' || ?3 || printf('%024d', i),
       CASE i % 3 WHEN 0 THEN 'ES' WHEN 1 THEN 'FR' ELSE 'DE' END, 'local', 'VAT' || printf('%08d', i),
       '2026-01-01T00:00:00.000Z', CASE i % 3 WHEN 0 THEN 'ES' WHEN 1 THEN 'FR' ELSE 'DE' END,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
     FROM n`,
  )
    .bind(accountId, count, tag)
    .run();
}

let key: string;
let unique: { id: string };

beforeAll(async () => {
  const others = await Promise.all(Array.from({ length: OTHER_TENANTS }, () => createAccount()));
  for (const [i, other] of others.entries()) await seed(other.id, `O${i}`, OTHER_SIZE);
  const account = await createAccount();
  key = account.testKey;
  await seed(account.id, "TT", TENANT_SIZE);
  const res = await client(key).post("/v1/customers", {
    name: "Zyxwvut Holdings",
    tax_id: { country: "US", type: "local", value: "US-ONLY-ONE" },
  });
  unique = res.body as { id: string };
  for (const [i, other] of others.entries()) {
    // The other tenants hold the same rare term too.
    await client(other.testKey).post("/v1/customers", {
      name: `Zyxwvut Holdings ${i}`,
      tax_id: { country: "US", type: "local", value: `US-OTHER-${i}` },
    });
  }
}, 600_000);

async function search(query: string) {
  const res = await client(key).get(`/v1/customers?${query}`);
  expect(res.status).toBe(200);
  const body = res.body as { data: { id: string; name: string; address: unknown }[]; has_more: boolean };
  return { ...body, rowsRead: Number(res.headers.get("D1-Rows-Read")) };
}

describe("search narrows to the caller's account and environment before it enumerates matches", () => {
  it("a one-match search reads at most 10 rows, while 10 other tenants hold the same term", async () => {
    const { data, rowsRead } = await search("q=Zyxwvut");
    expect(data.map((c) => c.id)).toEqual([unique.id]);
    expect(rowsRead).toBeLessThanOrEqual(10);
  });

  it("an id-shaped q is a direct lookup", async () => {
    const { data, rowsRead } = await search(`q=${unique.id}`);
    expect(data.map((c) => c.id)).toEqual([unique.id]);
    expect(rowsRead).toBeLessThanOrEqual(10);
  });

  it.each([
    "q=Acme",
    "q=cus",
    "q=cus_",
    "q=Customer",
    "q=example.com",
    "q=billing1",
    "q=VAT0000",
    "q=Acme&country=ES",
    "q=a",
    "q=ac",
    "q=%C3%B1",
    "q=nothing-matches-this",
    "limit=100&q=Acme",
  ])("any first page reads at most 2,000 rows: %s", async (query) => {
    const { rowsRead, data } = await search(query);
    expect(rowsRead).toBeLessThanOrEqual(2000);
    expect(data.length).toBeLessThanOrEqual(query.startsWith("limit=100") ? 100 : 25);
  });

  it("a common term fills its page with the caller's newest matches, and the next page follows on", async () => {
    const first = await search("q=Acme");
    expect(first.data).toHaveLength(25);
    expect(first.has_more).toBe(true);
    expect(first.data.every((c) => c.name.startsWith("Acme Customer "))).toBe(true);
    const numbers = first.data.map((c) => Number(c.name.split(" ").at(-1)));
    expect(numbers).toEqual(Array.from({ length: 25 }, (_, i) => TENANT_SIZE - i));
    const next = await search(`q=Acme&starting_after=${first.data.at(-1)?.id}`);
    expect(next.rowsRead).toBeLessThanOrEqual(2000);
    expect(next.data.map((c) => Number(c.name.split(" ").at(-1)))).toEqual(
      Array.from({ length: 25 }, (_, i) => TENANT_SIZE - 25 - i),
    );
    const back = await search(`q=Acme&ending_before=${next.data[0]?.id}`);
    expect(back.data.map((c) => c.id)).toEqual(first.data.map((c) => c.id));
  });

  it("the country filter is applied inside the index: a full page of that country", async () => {
    const { data, rowsRead } = await search("q=Acme&country=ES");
    expect(data).toHaveLength(25);
    expect(data.every((c) => Number(c.name.split(" ").at(-1)) % 3 === 0)).toBe(true);
    expect(rowsRead).toBeLessThanOrEqual(2000);
  });
});

describe("the index follows every write, in the caller's own range", () => {
  const body = (name: string, value: string) => ({ name, tax_id: { country: "US", type: "local", value } });
  const found = async (api: ReturnType<typeof client>, q: string) =>
    ((await api.get(`/v1/customers?q=${encodeURIComponent(q)}`)).body as { data: { id: string }[] }).data.map(
      (c) => c.id,
    );

  it("a renamed customer is found by its new name only; a deleted one is not found", async () => {
    const api = client((await createAccount()).testKey);
    const created = (await api.post("/v1/customers", body("Quokka Trading", "US-Q1"))).body as { id: string };
    expect(await found(api, "Quokka")).toEqual([created.id]);
    await api.patch(`/v1/customers/${created.id}`, { name: "Wombat Trading" });
    expect(await found(api, "Quokka")).toEqual([]);
    expect(await found(api, "Wombat")).toEqual([created.id]);
    await api.del(`/v1/customers/${created.id}`);
    expect(await found(api, "Wombat")).toEqual([]);
  });

  it("Test and Live of one account search apart", async () => {
    const account = await createAccount();
    const test = client(account.testKey);
    const live = client(account.liveKey);
    const t = (await test.post("/v1/customers", body("Narwhal Test", "US-N1"))).body as { id: string };
    const l = (await live.post("/v1/customers", body("Narwhal Live", "US-N2"))).body as { id: string };
    expect(await found(test, "Narwhal")).toEqual([t.id]);
    expect(await found(live, "Narwhal")).toEqual([l.id]);
  });
});
