import type { Context } from "hono";
import { type PaymentInstructionRow, paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import { recordEvent } from "../../events/record";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { CreatePaymentInstructionBody } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

/** `POST /v1/payment-instructions`. Creating one does not add it to the account's defaults. */
export async function createPaymentInstruction(c: Context<AppEnv>, body: CreatePaymentInstructionBody) {
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
  const event = recordEvent(db, caller, "payment_instruction.created", instruction);
  const [, written] = await db.batch([db.insert(paymentInstructions).values(row), event.query]);
  dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
  return c.json(instruction, 201);
}
