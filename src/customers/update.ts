import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { isRaised, isUniqueViolation } from "../db/errors";
import { customerColumns, customers } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { notFound } from "../http/errors";
import { nowIso } from "../lib/clock";
import { insertTaxId, queueAfterWrite, taxIdRow, verifiesFor } from "../tax-ids/write";
import { customerChanges } from "./changes";
import { prefixLocked, prefixTaken } from "./fields";
import { findCustomer } from "./find";
import type { Customer, UpdateCustomerBody } from "./schemas";
import { serializeCustomer } from "./serialize";

/** Omitted fields stay; see the seed's update table for nulls. */
export async function updateCustomer(
  w: Writer,
  caller: Caller,
  id: string,
  body: UpdateCustomerBody,
): Promise<Customer> {
  const { db } = w;
  const current = await findCustomer(db, caller, id);
  if (Object.keys(body).length === 0) return serializeCustomer(current);

  // Only the named fields are written (see `customerChanges`): a concurrent PATCH of
  // another field survives, and the response and the event show it.
  const { set, next, fill, taxId } = customerChanges(body, current, nowIso(), verifiesFor(caller, w.env));
  const statements = {
    updated: db
      .update(customers)
      .set(set)
      .where(and(eq(customers.id, id), ownedBy(customers, caller)))
      .returning(customerColumns),
  };
  // A new Tax ID's row, after the UPDATE and only if it gave the customer that Tax ID.
  const stored = taxId && taxIdRow(taxId, caller, { type: "customer", id });
  const insert =
    stored &&
    insertTaxId(db, stored, {
      table: customers,
      where: and(eq(customers.id, id), eq(customers.taxIdId, stored.id)),
    });
  try {
    const { results } = await writeWithEvents(w, insert ? { ...statements, taxId: insert } : statements, {
      type: "customer.updated",
      object: serializeCustomer(next),
      fill,
      whileExists: [customers, customers.id],
    });
    const row = results.updated[0];
    // Deleted between the read and the write.
    if (!row) throw notFound("customer", id);
    if (stored) queueAfterWrite(w, [stored]);
    return serializeCustomer(row);
  } catch (err) {
    if (isUniqueViolation(err, "invoice_prefix")) throw prefixTaken(next.invoicePrefix);
    // The database's lock (a trigger): an invoice already names this customer.
    if (isRaised(err, "invoice_prefix_locked")) throw prefixLocked(current.invoicePrefix);
    throw err;
  }
}
