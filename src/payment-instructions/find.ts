import { and, eq } from "drizzle-orm";
import { counted, type Database } from "../db/client";
import { type PaymentInstructionRow, paymentInstructions } from "../db/schema";
import type { Caller } from "../http/context";
import { notFound } from "../http/errors";
import { ownedBy } from "../db/scope";

/** The caller's instruction `id`, or a 404 (other accounts and environments do not exist). */
export async function findPaymentInstruction(
  db: Database,
  caller: Caller,
  id: string,
): Promise<PaymentInstructionRow> {
  const rows = await counted(
    db,
    db
      .select()
      .from(paymentInstructions)
      .where(and(eq(paymentInstructions.id, id), ownedBy(paymentInstructions, caller)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound("payment instruction", id);
  return row;
}
