import type { Caller } from "../contracts/caller";
import { type PaymentInstructionRow, paymentInstructions } from "../db/schema";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import type { CreatePaymentInstructionBody, PaymentInstruction } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

/** Creating one does not add it to the account's defaults. */
export async function createPaymentInstruction(
  w: Writer,
  caller: Caller,
  body: CreatePaymentInstructionBody,
): Promise<PaymentInstruction> {
  const { db } = w;
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
    w,
    { insert: db.insert(paymentInstructions).values(row) },
    { type: "payment_instruction.created", object: instruction },
  );
  return instruction;
}
