import { and, eq } from "drizzle-orm";
import { customerColumns, customers } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { isRaised, isUniqueViolation } from "../../db/errors";
import { notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { insertTaxId, queueAfterWrite, taxIdRow, verifiesFor } from "../../tax-ids/write";
import { customerChanges } from "../../customers/changes";
import { prefixLocked, prefixTaken } from "../../customers/fields";
import { findCustomer } from "../../customers/find";
import { customerObject, updateCustomerBody } from "../../customers/schemas";
import { serializeCustomer } from "../../customers/serialize";

/** Omitted fields stay; see the seed's update table for nulls. */
export const updateCustomer = route({
  method: "patch",
  path: "/v1/customers/:id",
  tag: "Customers",
  summary: "Update a customer",
  request: { params: idParams, json: updateCustomerBody },
  responses: { 200: { description: "The updated customer.", schema: customerObject } },
  errors: ["invoice_prefix_taken", "invoice_prefix_locked"],
  handler: async (c, { params: { id }, json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const current = await findCustomer(db, caller, id);
    if (Object.keys(body).length === 0) return c.json(serializeCustomer(current));

    // Only the named fields are written (see `customerChanges`): a concurrent PATCH of
    // another field survives, and the response and the event show it.
    const { set, next, fill, taxId } = customerChanges(body, current, nowIso(), verifiesFor(caller, c.env));
    const w = writerOf(c);
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
      return c.json(serializeCustomer(row));
    } catch (err) {
      if (isUniqueViolation(err, "invoice_prefix")) throw prefixTaken(next.invoicePrefix);
      // The database's lock (a trigger): an invoice already names this customer.
      if (isRaised(err, "invoice_prefix_locked")) throw prefixLocked(current.invoicePrefix);
      throw err;
    }
  },
});
