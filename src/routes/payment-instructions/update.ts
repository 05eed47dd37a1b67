import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { type PaymentInstructionRow, paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dispatchAfterResponse } from "../../events/dispatch";
import { recordEvent } from "../../events/record";
import { nowIso } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { ownedBy } from "../../lib/scope";
import { findPaymentInstruction } from "./find";
import type { UpdatePaymentInstructionBody } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

/**
 * `PATCH /v1/payment-instructions/:id`. Affects future uses only: issued invoices keep their
 * snapshot. An instruction used by invoices may still be changed.
 */
export async function updatePaymentInstruction(
  c: Context<AppEnv>,
  id: string,
  body: UpdatePaymentInstructionBody,
) {
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
  const event = recordEvent(db, caller, "payment_instruction.updated", instruction, {
    whileExists: [paymentInstructions, paymentInstructions.id],
  });
  const [updated, written] = await db.batch([
    db
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
    event.query,
  ]);
  if (updated.length === 0) throw notFound("payment instruction", id);
  dispatchAfterResponse(c.executionCtx, c.env, event.row, written);
  return c.json(instruction);
}
