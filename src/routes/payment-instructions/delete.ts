import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import { recordEvent } from "../../events/record";
import { isForeignKeyViolation } from "../../lib/db-errors";
import { ApiError, notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { findPaymentInstruction } from "./find";
import { serializePaymentInstruction } from "./serialize";

/**
 * `DELETE /v1/payment-instructions/:id`: 204. An instruction in the account's
 * `default_payment_instructions` is a 409 until removed from them; the foreign key from the
 * defaults table decides (and rolls the event back with the delete), so a concurrent PATCH
 * of the defaults cannot slip past the check.
 */
export async function deletePaymentInstruction(c: Context<AppEnv>, id: string) {
  const db = c.get("db");
  const caller = c.get("caller");
  const current = await findPaymentInstruction(db, caller, id);
  const event = recordEvent(db, caller, "payment_instruction.deleted", serializePaymentInstruction(current), {
    whileExists: [paymentInstructions, paymentInstructions.id],
  });
  try {
    const [written, deleted] = await db.batch([
      event.query,
      db
        .delete(paymentInstructions)
        .where(and(eq(paymentInstructions.id, id), ownedBy(paymentInstructions, caller)))
        .returning({ id: paymentInstructions.id }),
    ]);
    if (deleted.length === 0) throw notFound("payment instruction", id);
    dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    throw new ApiError(
      "resource_in_use",
      `Payment instruction '${id}' is in the account's default_payment_instructions: remove it there first (PATCH /v1/account).`,
    );
  }
  return c.body(null, 204);
}
