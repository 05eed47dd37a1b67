import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";

/**
 * `DELETE /v1/customers/:id`: 204 with no body. The rule that a customer referenced by an
 * invoice cannot be deleted arrives with invoices (a `NOT EXISTS` on this same statement).
 */
export async function deleteCustomer(c: Context<AppEnv>, id: string) {
  const db = c.get("db");
  const [deleted] = await db.batch([
    db
      .delete(customers)
      .where(and(eq(customers.id, id), ownedBy(customers, c.get("caller"))))
      .returning({ id: customers.id }),
  ]);
  if (deleted.length === 0) throw notFound("customer", id);
  return c.body(null, 204);
}
