import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { type CustomerRow, customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import { recordEvent } from "../../events/record";
import { nowIso } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { addressColumns, newTaxIdColumns, prefixTaken } from "./fields";
import { findCustomer } from "./find";
import type { UpdateCustomerBody } from "./schemas";
import { serializeCustomer } from "./serialize";

/** `PATCH /v1/customers/:id`: omitted fields stay; see the seed's update table for nulls. */
export async function updateCustomer(c: Context<AppEnv>, id: string, body: UpdateCustomerBody) {
  const caller = c.get("caller");
  const db = c.get("db");
  const current = await findCustomer(db, caller, id);
  if (Object.keys(body).length === 0) return c.json(serializeCustomer(current));

  const next: CustomerRow = {
    ...current,
    ...(body.name !== undefined && { name: body.name }),
    ...(body.invoice_prefix !== undefined && { invoicePrefix: body.invoice_prefix }),
    ...(body.email !== undefined && { email: body.email }),
    ...(body.phone !== undefined && { phone: body.phone }),
    // A replaced Tax ID is a new object: new id, fresh verification.
    ...(body.tax_id !== undefined && newTaxIdColumns(body.tax_id)),
    ...(body.address !== undefined && addressColumns(body.address, current.addressLine1 ? current : null)),
    updatedAt: nowIso(),
  };
  next.filterCountry = next.addressCountry ?? next.taxIdCountry;

  const { id: _id, accountId: _a, live: _l, createdAt: _c, ...changes } = next;
  const customer = serializeCustomer(next);
  const event = recordEvent(db, caller, "customer.updated", customer, {
    whileExists: [customers, customers.id],
  });
  try {
    const [updated, written] = await db.batch([
      db
        .update(customers)
        .set(changes)
        .where(and(eq(customers.id, id), ownedBy(customers, caller)))
        .returning({ id: customers.id }),
      event.query,
    ]);
    // Deleted between the read and the write.
    if (updated.length === 0) throw notFound("customer", id);
    dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
  } catch (err) {
    if (isUniqueViolation(err, "invoice_prefix")) throw prefixTaken(next.invoicePrefix);
    throw err;
  }
  return c.json(customer);
}
