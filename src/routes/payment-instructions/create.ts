import { type PaymentInstructionRow, paymentInstructions } from "../../db/schema";
import { writeWithEvents } from "../../events/write";
import { writerOf } from "../../events/writer";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { route } from "../../http/route";
import { createPaymentInstructionBody, paymentInstructionObject } from "../../payment-instructions/schemas";
import { serializePaymentInstruction } from "../../payment-instructions/serialize";

/** Creating one does not add it to the account's defaults. */
export const createPaymentInstruction = route({
  method: "post",
  path: "/v1/payment-instructions",
  tag: "Payment instructions",
  summary: "Create a payment instruction",
  request: { json: createPaymentInstructionBody },
  responses: { 201: { description: "The new instruction.", schema: paymentInstructionObject } },
  handler: async (c, { json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const now = nowIso();
    const row: PaymentInstructionRow = {
      id: newId("paymentInstruction"),
      accountId: caller.accountId,
      live: caller.live,
      label: body.label,
      type: body.type,
      beneficiary: body.bank_transfer.beneficiary,
      iban: body.bank_transfer.iban,
      bic: body.bank_transfer.bic ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const instruction = serializePaymentInstruction(row);
    await writeWithEvents(
      writerOf(c),
      { insert: db.insert(paymentInstructions).values(row) },
      { type: "payment_instruction.created", object: instruction },
    );
    return c.json(instruction, 201);
  },
});
