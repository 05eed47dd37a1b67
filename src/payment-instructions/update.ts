import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { type PaymentInstructionRow, paymentInstructions as pi } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { notFound } from "../http/errors";
import { nowIso } from "../lib/clock";
import { FIELDS, storedInstructionFill } from "./fields";
import { findPaymentInstruction } from "./find";
import type { PaymentInstruction, UpdatePaymentInstructionBody } from "./schemas";
import { serializePaymentInstruction } from "./serialize";

/** Affects future uses only: issued invoices keep their snapshot. */
export async function updatePaymentInstruction(
  w: Writer,
  caller: Caller,
  id: string,
  body: UpdatePaymentInstructionBody,
): Promise<PaymentInstruction> {
  const { db } = w;
  const current = await findPaymentInstruction(db, caller, id);
  const given = { label: body.label, ...body.bank_transfer };
  if (FIELDS.every(([, key]) => given[key] === undefined)) {
    return serializePaymentInstruction(current);
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
    w,
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
  return serializePaymentInstruction(row);
}
