/**
 * Storage and write budgets (issue 30, item 1; docs/security.md, docs/api-conventions.md#write-budgets):
 * no stored object is larger than the largest legitimate invoice needs, and each account
 * environment writes at most its budget of bytes a UTC day, refused with 429
 * `storage_budget_exhausted` while every other account (and its other environment) keeps writing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config";
import { MAX_INVOICE_BYTES } from "../../../src/invoices/issue";
import { client, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, validCustomer } from "../../helpers/factories";
import { largestCustomer, largestInvoice } from "../../helpers/largest-invoice";
import { dbSnapshot, expectError } from "../../helpers/security";

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

/** Today's counted bytes of an environment (0 without a row). */
async function counted(accountId: string, live: boolean): Promise<number> {
  const row = await env.DB.prepare("SELECT bytes FROM write_budgets WHERE account_id = ? AND live = ?")
    .bind(accountId, live ? 1 : 0)
    .first<{ bytes: number }>();
  return row?.bytes ?? 0;
}

/** Issues the largest legitimate invoice in `letter`s; its copies' bytes (request, response, row, event). */
async function issueLargest(letter: string) {
  const account = await createAccount({ taxRegime: "global" });
  const api = client(account.testKey);
  const customer = await api.post("/v1/customers", largestCustomer(letter));
  expect(customer.status, customer.text).toBe(201);
  const body = largestInvoice((customer.body as { id: string }).id, letter);
  const res = await api.post("/v1/invoices", body);
  expect(res.status, res.text).toBe(201);
  const id = (res.body as { id: string }).id;
  const row = await env.DB.prepare("SELECT * FROM invoices WHERE id = ?").bind(id).first();
  const event = await env.DB.prepare(
    "SELECT data FROM events WHERE related_object_id = ? AND type = 'invoice.issued'",
  )
    .bind(id)
    .first<{ data: string }>();
  const sizes = {
    request: bytes(JSON.stringify(body)),
    response: bytes(res.text),
    row: bytes(JSON.stringify(row)),
    event: bytes(event?.data ?? ""),
  };
  return { id, sizes };
}

/** This Worker's bindings with a Test budget of `n` bytes a day. */
const testBudget = (n: number) => ({ ...env, WRITE_BUDGET_TEST_BYTES: String(n) }) as Env;

describe("No stored invoice is larger than the largest legitimate one (200 lines, every field at its maximum; 2,000 breakdown rows: invoices/validation.test.ts)", () => {
  it.each([
    ["ASCII", "x"],
    ["Spanish prose", "Mantenimiento técnico de la instalación eléctrica y revisión del año. "],
  ])(
    "the largest legitimate invoice in %s is issued, and its stored copies measure at most MAX_INVOICE_BYTES",
    async (_, letter) => {
      const { id, sizes } = await issueLargest(letter);
      console.log(`largest legitimate invoice (${letter.slice(0, 12)}): ${JSON.stringify(sizes)} bytes`);
      expect(await env.DB.prepare("SELECT 1 FROM invoices WHERE id = ?").bind(id).first()).not.toBeNull();
      expect(Math.max(sizes.response, sizes.event)).toBeLessThanOrEqual(MAX_INVOICE_BYTES);
    },
  );

  it("an invoice beyond the largest legitimate one (every text at its maximum, in two-byte letters only: ~914 KB) → 400 param lines, writing nothing", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const customer = await api.post("/v1/customers", largestCustomer("x"));
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", largestInvoice((customer.body as { id: string }).id, "ñ"));
    expectError(res, 400, "parameter_invalid", "lines");
    expect(res.body.error.message).toContain("too large to store");
    expect(await dbSnapshot()).toBe(before);
  });
});

const T0 = Date.UTC(2026, 2, 1, 22); // 22:00 UTC: two hours left of the day

/** Seeds `accountId`'s environment as having written `n` bytes on the clock's day. */
async function seedCount(accountId: string, live: boolean, day: number, n: number) {
  await env.DB.prepare(
    "INSERT OR REPLACE INTO write_budgets (account_id, live, day, bytes) VALUES (?, ?, ?, ?)",
  )
    .bind(accountId, live ? 1 : 0, new Date(day).toISOString().slice(0, 10), n)
    .run();
}

describe("Each account environment writes at most its budget of bytes a UTC day", () => {
  it("a write past the budget is 429 storage_budget_exhausted, Retry-After until midnight UTC, and writes nothing", async () => {
    useClock(T0);
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey, testBudget(4_000));
    let res = await api.post("/v1/customers", validCustomer);
    expect(res.status, res.text).toBe(201);
    expect(await counted(account.id, false)).toBeGreaterThan(bytes(res.text));
    for (let i = 0; i < 5 && res.status === 201; i++) {
      const before = await dbSnapshot();
      res = await api.post("/v1/customers", validCustomer);
      if (res.status !== 201) expect(await dbSnapshot()).toBe(before);
    }
    expectError(res, 429, "storage_budget_exhausted");
    expect(res.headers.get("retry-after")).toBe(String(2 * 60 * 60));
    expect(await counted(account.id, false)).toBeLessThanOrEqual(4_000);
  });

  it("while one environment is over its budget, other accounts and its own other environment keep writing, and reads go on", async () => {
    useClock(T0);
    const { writeBudget } = parseConfig(env as unknown as Record<string, unknown>);
    const full = await createAccount({ taxRegime: "global" });
    const other = await createAccount({ taxRegime: "global" });
    await seedCount(full.id, false, T0, writeBudget.test);
    expectError(
      await client(full.testKey).post("/v1/customers", validCustomer),
      429,
      "storage_budget_exhausted",
    );
    expect((await client(other.testKey).post("/v1/customers", validCustomer)).status).toBe(201);
    expect((await client(full.liveKey).post("/v1/customers", validCustomer)).status).toBe(201);
    expect((await client(full.testKey).get("/v1/customers")).status).toBe(200);
  });

  it("the budget starts over at midnight UTC, and a refused request's Idempotency-Key then runs it", async () => {
    const clock = useClock(T0);
    const { writeBudget } = parseConfig(env as unknown as Record<string, unknown>);
    const account = await createAccount({ taxRegime: "global" });
    await seedCount(account.id, false, T0, writeBudget.test);
    const send = () =>
      request(
        "POST",
        "/v1/customers",
        { ...validCustomer, name: "Mañana SL" },
        {
          key: account.testKey,
          headers: { "Idempotency-Key": "budget-retry" },
        },
      );
    expectError(await send(), 429, "storage_budget_exhausted");
    clock.advance(2 * 60 * 60 * 1000);
    const res = await send();
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    // The new day's count holds this one write (a customer and its Tax ID, event and response).
    expect(await counted(account.id, false)).toBeLessThan(10_000);
  });

  it("two concurrent writes that fit the budget only one at a time: one is written, the other refused", async () => {
    const account = await createAccount({ taxRegime: "global" });
    // One customer counts ~1,900 bytes (its row, Tax ID and event): 3,000 hold one, not two.
    const api = client(account.testKey, testBudget(3_000));
    const results = await Promise.all([
      api.post("/v1/customers", validCustomer),
      api.post("/v1/customers", { ...validCustomer, name: "Otra SL" }),
    ]);
    expect(results.map((r) => r.status).sort(), results.map((r) => r.text).join("\n")).toEqual([201, 429]);
    const list = await client(account.testKey).get("/v1/customers");
    expect((list.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it("a write counts every stored copy: the largest invoice's row, its event and its stored response", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const customer = await api.post("/v1/customers", largestCustomer("x"));
    const before = await counted(account.id, false);
    const res = await request(
      "POST",
      "/v1/invoices",
      largestInvoice((customer.body as { id: string }).id, "x"),
      {
        key: account.testKey,
        headers: { "Idempotency-Key": "largest" },
      },
    );
    expect(res.status, res.text).toBe(201);
    expect((await counted(account.id, false)) - before).toBeGreaterThanOrEqual(3 * bytes(res.text));
  });
});
