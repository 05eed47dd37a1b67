import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { counted, type Database } from "../db/client";
import { type PaymentInstructionRow, paymentInstructions } from "../db/schema";
import { ownedBy } from "../db/scope";
import { notFound } from "../http/errors";

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
