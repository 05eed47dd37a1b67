import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import { recordEvent } from "../../events/record";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { findCustomer } from "./find";
import { serializeCustomer } from "./serialize";

/**
 * `DELETE /v1/customers/:id`: 204 with no body. The event carries the customer as it was.
 * The rule that a customer referenced by an invoice cannot be deleted arrives with invoices
 * (a `NOT EXISTS` on this same statement).
 */
export async function deleteCustomer(c: Context<AppEnv>, id: string) {
  const db = c.get("db");
  const caller = c.get("caller");
  const current = await findCustomer(db, caller, id);
  // Written first and only while the row exists, so a concurrent delete records one event.
  const event = recordEvent(db, caller, "customer.deleted", serializeCustomer(current), {
    whileExists: [customers, customers.id],
  });
  const [written, deleted] = await db.batch([
    event.query,
    db
      .delete(customers)
      .where(and(eq(customers.id, id), ownedBy(customers, caller)))
      .returning({ id: customers.id }),
  ]);
  if (deleted.length === 0) throw notFound("customer", id);
  dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
  return c.body(null, 204);
}
