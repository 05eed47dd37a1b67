import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { isForeignKeyViolation } from "../../db/errors";
import { ApiError, notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { storedCustomerFill } from "../../customers/changes";
import { findCustomer } from "../../customers/find";
import { serializeCustomer } from "../../customers/serialize";

/** 204 with no body; the event carries the customer as it was. A customer named by an invoice is a 409. */
export const deleteCustomer = route({
  method: "delete",
  path: "/v1/customers/:id",
  tag: "Customers",
  summary: "Delete a customer",
  request: { params: idParams },
  responses: { 204: { description: "Deleted." } },
  errors: ["resource_in_use"],
  handler: async (c, { params: { id } }) => {
    const db = c.get("db");
    const caller = c.get("caller");
    const current = await findCustomer(db, caller, id);
    const write = writeWithEvents(
      writerOf(c),
      {
        deleted: db
          .delete(customers)
          .where(and(eq(customers.id, id), ownedBy(customers, caller)))
          .returning({ id: customers.id }),
      },
      // Only while the row exists, so two concurrent deletes record one event; its snapshot
      // is the row as the delete finds it (a concurrent PATCH included).
      {
        type: "customer.deleted",
        object: serializeCustomer(current),
        fill: storedCustomerFill(),
        whileExists: [customers, customers.id],
      },
    );
    // The invoices' foreign key decides, so an invoice issued concurrently cannot slip past.
    const { results } = await write.catch((err) => {
      if (!isForeignKeyViolation(err)) throw err;
      throw new ApiError(
        "resource_in_use",
        `Customer '${id}' is named by invoices, which keep referring to it: it cannot be deleted.`,
      );
    });
    if (results.deleted.length === 0) throw notFound("customer", id);
    return c.body(null, 204);
  },
});
