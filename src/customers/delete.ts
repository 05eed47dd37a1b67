import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { isForeignKeyViolation } from "../db/errors";
import { customers } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { ApiError, notFound } from "../http/errors";
import { storedCustomerFill } from "./changes";
import { findCustomer } from "./find";
import { serializeCustomer } from "./serialize";

/** 204 with no body; the event carries the customer as it was. A customer named by an invoice is a 409. */
export async function deleteCustomer(w: Writer, caller: Caller, id: string): Promise<void> {
  const { db } = w;
  const current = await findCustomer(db, caller, id);
  const write = writeWithEvents(
    w,
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
  return;
}
