import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { createDb } from "../db/client";
import { customers } from "../db/schema";
import type { AppEnv } from "../env";
import { newId } from "../lib/ids";
import { paginate } from "../lib/pagination";
import { likeCondition } from "../routes/customers/search";
import { serializeCustomer } from "../routes/customers/serialize";
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
  .get("/d1-read/:id", async (c) => {
    const row = await c.env.DB.prepare("SELECT * FROM customers WHERE id = ?")
      .bind(c.req.param("id"))
      .first();
    return c.json(row);
  })
  .post("/d1-insert/:account", async (c) => {
    const id = newId("customer");
    const now = new Date().toISOString();
    await c.env.DB.prepare(
      "INSERT INTO customers (id, account_id, live, name, invoice_prefix, tax_id_id, tax_id_country, tax_id_type, tax_id_value, tax_id_created_at, filter_country, created_at, updated_at) VALUES (?, ?, 0, 'Floor', ?, ?, 'ES', 'local', 'FLOOR', ?, 'ES', ?, ?)",
    )
      .bind(id, c.req.param("account"), id.slice(-12), newId("taxId"), now, now, now)
      .run();
    return c.json({ id }, 201);
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
