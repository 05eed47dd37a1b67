import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { likeCondition } from "../customers/search";
import { serializeCustomer } from "../customers/serialize";
import { createDb } from "../db/client";
import { customers } from "../db/schema";
import type { AppEnv } from "../http/context";
import { paginate } from "../http/pagination";
import { newId } from "../lib/ids";
import { CATALOG_KEYS, catalogDocuments } from "../tax/documents";

/**
 * Floors for `bench/`, measured on the same server as the API: a raw one-row D1 read and
 * insert, and customer search by LIKE scan (what the trigram index replaces). Only the
 * development entry (`npm start`) mounts them; the production Worker does not contain them.
 */
export const benchRoutes = new Hono<AppEnv>()
  // The catalog's bytes as a plain static response: the fair floor for the KV-served route.
  .get("/static-catalog", (c) =>
    c.body(catalogDocuments().get(CATALOG_KEYS.regime("es")) ?? "", 200, {
      "Content-Type": "application/json",
    }),
  )
  .get("/d1-read/:table/:id", async (c) => {
    const table = c.req.param("table");
    if (table !== "customers" && table !== "invoices") return c.notFound();
    const row = await c.env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(c.req.param("id")).first();
    return c.json(row);
  })
  // Copies of one issued invoice, numbered after it: a large invoice table without issuing
  // each one. Ids keep the template's time part, so they sort with it.
  .post("/clone-invoices/:id", async (c) => {
    const from = Number(c.req.query("from"));
    const to = Number(c.req.query("to"));
    const cols =
      "account_id, live, type, series, numbering, counter_key, operation_date, supply_tax_date, withholding_tax_date, currency, customer_id, issuer, customer, lines, tax_breakdown, subtotal, total_tax_added, total_tax_withheld, total, amount_payable, payment_terms, corrected_by, notes, created_at";
    // With `per_day`, the copies are issued that many a day after the template, in number
    // order, 30 days to pay, 1 in 10 unpaid (the rest paid) and 1 in 50 void: what the list
    // filters need to be measured on (status, payment_status, overdue, issue_date ranges). The
    // overdue ones are stamped as the overdue job would have (`overdue_at`), the steady state.
    const perDay = Number(c.req.query("per_day") ?? 0);
    // Dated from `start` (default: the template's date): es invoices cannot be issued before
    // 2024-10-28, and an issued invoice's date never changes (migration 0033), so 100,000
    // invoices at 100 a day are inserted with dates before their template's.
    const start = "coalesce(?5, t.issue_date)";
    const due = `date(${start}, '+' || (n.i / ?4 + 30) || ' days')`;
    const lifecycle = perDay
      ? {
          cols: ", issue_date, due_date, status, payment_status, amount_paid, overdue_at",
          values: `, date(${start}, '+' || (n.i / ?4) || ' days'), ${due},
            CASE WHEN n.i % 50 = 0 THEN 'void' ELSE 'issued' END,
            CASE WHEN n.i % 10 = 0 THEN 'unpaid' ELSE 'paid' END,
            CASE WHEN n.i % 10 = 0 THEN 0 ELSE t.amount_payable END,
            CASE WHEN n.i % 10 = 0 AND n.i % 50 <> 0 AND ${due} < date('now') THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END`,
        }
      : { cols: ", issue_date", values: ", t.issue_date" };
    const result = await c.env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO invoices (id, counter, number, ${cols}${lifecycle.cols})
       SELECT substr(t.id, 1, 14) || printf('%016d', n.i), n.i, t.series || '-' || printf('%04d', n.i), ${cols
         .split(", ")
         .map((col) => `t.${col}`)
         .join(", ")}${lifecycle.values}
       FROM n, invoices t WHERE t.id = ?3`,
    )
      .bind(...[from, to, c.req.param("id"), ...(perDay ? [perDay, c.req.query("start") ?? null] : [])])
      .run();
    return c.json({ inserted: result.meta.changes }, 201);
  })
  .post("/d1-insert/:account", async (c) =>
    c.json({ id: await insertCustomer(c.env.DB, c.req.param("account")) }, 201),
  )
  // Two round trips, a read and then an insert: the least any write that reads first costs.
  .post("/d1-read-insert/:account/:id", async (c) => {
    await c.env.DB.prepare("SELECT * FROM customers WHERE id = ?").bind(c.req.param("id")).first();
    return c.json({ id: await insertCustomer(c.env.DB, c.req.param("account")) }, 201);
  })
  .get("/customers-like/:account", async (c) => {
    const usage = { rowsRead: 0, rowsWritten: 0 };
    const db = createDb(c.env.DB, usage);
    const where = and(
      eq(customers.accountId, c.req.param("account")),
      eq(customers.live, false),
      likeCondition(c.req.query("q") ?? ""),
    );
    const page = await paginate(db, customers, "customer", where, { limit: 25 });
    c.header("D1-Rows-Read", String(usage.rowsRead));
    return c.json({ object: "list", has_more: page.has_more, data: page.data.map(serializeCustomer) });
  });

/** One prepared INSERT into customers (same table, indexes and search trigger as the API's). */
async function insertCustomer(d1: D1Database, account: string): Promise<string> {
  const id = newId("customer");
  const now = new Date().toISOString();
  await d1
    .prepare(
      "INSERT INTO customers (id, account_id, live, name, invoice_prefix, tax_id_id, tax_id_country, tax_id_type, tax_id_value, tax_id_created_at, filter_country, created_at, updated_at) VALUES (?, ?, 0, 'Floor', ?, ?, 'ES', 'local', 'FLOOR', ?, 'ES', ?, ?)",
    )
    .bind(id, account, id.slice(-12), newId("taxId"), now, now, now)
    .run();
  return id;
}
