import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type CustomerRow, customerColumns, customers } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

/** The caller's customer `id`, or a 404 (other accounts and environments do not exist). */
export async function findCustomer(db: Database, caller: Caller, id: string): Promise<CustomerRow> {
  const rows = await counted(
    db,
    db
      .select(customerColumns)
      .from(customers)
      .where(and(eq(customers.id, id), ownedBy(customers, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("customer", id);
  return row;
}
