import { and, eq } from "drizzle-orm";
import { type PaymentInstructionRow, paymentInstructions } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { idParams, route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { findPaymentInstruction } from "./find";
import { paymentInstructionObject, updatePaymentInstructionBody } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

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
    const bt = body.bank_transfer;
    if (body.label === undefined && (bt === undefined || Object.keys(bt).length === 0)) {
      return c.json(serializePaymentInstruction(current));
    }
    const next: PaymentInstructionRow = {
      ...current,
      label: body.label ?? current.label,
      beneficiary: bt?.beneficiary ?? current.beneficiary,
      iban: bt?.iban ?? current.iban,
      bic: bt?.bic !== undefined ? bt.bic : current.bic,
      updatedAt: nowIso(),
    };
    const instruction = serializePaymentInstruction(next);
    const { results } = await writeWithEvents(
      writerOf(c),
      {
        updated: db
          .update(paymentInstructions)
          .set({
            label: next.label,
            beneficiary: next.beneficiary,
            iban: next.iban,
            bic: next.bic,
            updatedAt: next.updatedAt,
          })
          .where(and(eq(paymentInstructions.id, id), ownedBy(paymentInstructions, caller)))
          .returning({ id: paymentInstructions.id }),
      },
      {
        type: "payment_instruction.updated",
        object: instruction,
        whileExists: [paymentInstructions, paymentInstructions.id],
      },
    );
    if (results.updated.length === 0) throw notFound("payment instruction", id);
    return c.json(instruction);
  },
});
