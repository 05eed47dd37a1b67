import { and, eq } from "drizzle-orm";
import { type CustomerRow, customers } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { isRaised, isUniqueViolation } from "../../lib/db-errors";
import { notFound } from "../../lib/errors";
import { addressColumns, newTaxIdColumns } from "../../lib/party";
import { idParams, route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { prefixLocked, prefixTaken } from "./fields";
import { findCustomer } from "./find";
import { customerObject, updateCustomerBody } from "./schemas";
import { serializeCustomer } from "./serialize";

/** Omitted fields stay; see the seed's update table for nulls. */
export const updateCustomer = route({
  method: "patch",
  path: "/v1/customers/:id",
  tag: "Customers",
  summary: "Update a customer",
  request: { params: idParams, json: updateCustomerBody },
  responses: { 200: { description: "The updated customer.", schema: customerObject } },
  handler: async (c, { params: { id }, json: body }) => {
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
    try {
      const { results } = await writeWithEvents(
        writerOf(c),
        {
          updated: db
            .update(customers)
            .set(changes)
            .where(and(eq(customers.id, id), ownedBy(customers, caller)))
            .returning({ id: customers.id }),
        },
        { type: "customer.updated", object: customer, whileExists: [customers, customers.id] },
      );
      // Deleted between the read and the write.
      if (results.updated.length === 0) throw notFound("customer", id);
    } catch (err) {
      if (isUniqueViolation(err, "invoice_prefix")) throw prefixTaken(next.invoicePrefix);
      // The database's lock (a trigger): an invoice already names this customer.
      if (isRaised(err, "invoice_prefix_locked")) {
        throw prefixLocked(current.invoicePrefix);
      }
      throw err;
    }
    return c.json(customer);
  },
});
