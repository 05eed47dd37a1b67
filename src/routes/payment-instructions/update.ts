import { and, eq } from "drizzle-orm";
import { type PaymentInstructionRow, paymentInstructions as pi } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { notFound } from "../../http/errors";
import { idParams, route } from "../../http/route";
import { ownedBy } from "../../db/scope";
import { FIELDS, storedInstructionFill } from "../../payment-instructions/fields";
import { findPaymentInstruction } from "../../payment-instructions/find";
import { paymentInstructionObject, updatePaymentInstructionBody } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

/** Affects future uses only: issued invoices keep their snapshot. */
export const updatePaymentInstruction = route({
  method: "patch",
  path: "/v1/payment-instructions/:id",
  tag: "Payment instructions",
  summary: "Update a payment instruction",
  request: { params: idParams, json: updatePaymentInstructionBody },
  responses: { 200: { description: "The updated instruction.", schema: paymentInstructionObject } },
  handler: async (c, { params: { id }, json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const current = await findPaymentInstruction(db, caller, id);
    const given = { label: body.label, ...body.bank_transfer };
    if (FIELDS.every(([, key]) => given[key] === undefined)) {
      return c.json(serializePaymentInstruction(current));
    }
    // Only the named fields are written, so a concurrent PATCH of another field survives;
    // the event's snapshot takes the others from the row its write finds, as RETURNING does.
    const now = nowIso();
    const set: Partial<PaymentInstructionRow> = { updatedAt: now };
    const { "$.updated_at": _, ...fill } = storedInstructionFill();
    for (const [path, key] of FIELDS) {
      const value = given[key];
      if (value === undefined) continue;
      (set as Record<string, unknown>)[key] = value;
      delete fill[path];
    }
    const { results } = await writeWithEvents(
      writerOf(c),
      {
        updated: db
          .update(pi)
          .set(set)
          .where(and(eq(pi.id, id), ownedBy(pi, caller)))
          .returning(),
      },
      {
        type: "payment_instruction.updated",
        object: serializePaymentInstruction({ ...current, ...set }),
        fill,
        whileExists: [pi, pi.id],
      },
    );
    const row = results.updated[0];
    if (!row) throw notFound("payment instruction", id);
    return c.json(serializePaymentInstruction(row));
  },
});
