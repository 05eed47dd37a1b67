import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { isForeignKeyViolation } from "../db/errors";
import { paymentInstructions } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { ApiError, notFound } from "../http/errors";
import { storedInstructionFill } from "./fields";
import { findPaymentInstruction } from "./find";
import { serializePaymentInstruction } from "./serialize";

/**
 * 204. An instruction in the account's `default_payment_instructions` is a 409 until removed
 * from them; the foreign key from the defaults table decides (and rolls the event back with
 * the delete), so a concurrent PATCH of the defaults cannot slip past the check.
 */
export async function deletePaymentInstruction(w: Writer, caller: Caller, id: string): Promise<void> {
  const { db } = w;
  const current = await findPaymentInstruction(db, caller, id);
  try {
    const { results } = await writeWithEvents(
      w,
      {
        deleted: db
          .delete(paymentInstructions)
          .where(and(eq(paymentInstructions.id, id), ownedBy(paymentInstructions, caller)))
          .returning({ id: paymentInstructions.id }),
      },
      {
        type: "payment_instruction.deleted",
        object: serializePaymentInstruction(current),
        // The row as the delete finds it, a concurrent PATCH included.
        fill: storedInstructionFill(),
        whileExists: [paymentInstructions, paymentInstructions.id],
      },
    );
    if (results.deleted.length === 0) throw notFound("payment instruction", id);
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    throw new ApiError(
      "resource_in_use",
      `Payment instruction '${id}' is in the account's default_payment_instructions: remove it there first (PATCH /v1/account).`,
    );
  }
  return;
}
