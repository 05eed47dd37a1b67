import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type PaymentRow, payments } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

/** The caller's payment `id`, or a 404 (other accounts and environments do not exist). */
export async function findPayment(db: Database, caller: Caller, id: string): Promise<PaymentRow> {
  const rows = await counted(
    db,
    db
      .select()
      .from(payments)
      .where(and(eq(payments.id, id), ownedBy(payments, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("payment", id);
  return row;
}
