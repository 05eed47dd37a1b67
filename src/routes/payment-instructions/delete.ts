import { and, eq } from "drizzle-orm";
import { paymentInstructions } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { isForeignKeyViolation } from "../../db/errors";
import { ApiError, notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { storedInstructionFill } from "../../payment-instructions/fields";
import { findPaymentInstruction } from "../../payment-instructions/find";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

/**
 * 204. An instruction in the account's `default_payment_instructions` is a 409 until removed
 * from them; the foreign key from the defaults table decides (and rolls the event back with
 * the delete), so a concurrent PATCH of the defaults cannot slip past the check.
 */
export const deletePaymentInstruction = route({
  method: "delete",
  path: "/v1/payment-instructions/:id",
  tag: "Payment instructions",
  summary: "Delete a payment instruction",
  request: { params: idParams },
  responses: { 204: { description: "Deleted." } },
  errors: ["resource_in_use"],
  handler: async (c, { params: { id } }) => {
    const db = c.get("db");
    const caller = c.get("caller");
    const current = await findPaymentInstruction(db, caller, id);
    try {
      const { results } = await writeWithEvents(
        writerOf(c),
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
    return c.body(null, 204);
  },
});
