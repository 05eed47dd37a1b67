import { and, eq, sql } from "drizzle-orm";
import type * as z from "zod";
import type { Caller } from "../contracts/caller";
import { invoices, payments } from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { notFound } from "../http/errors";
import { paymentStatusFor } from "../invoices/owed";
import { findPayment } from "./find";
import type { deletedPaymentObject } from "./schemas";
import { serializePayment } from "./serialize";

/**
 * A payment recorded by mistake. Its invoice's `amount_paid`, `payment_status` and `paid_on`
 * are recomputed from the payments left, in the same batch as the delete, so they hold
 * whatever other payments commit around it.
 */
export async function deletePayment(
  w: Writer,
  caller: Caller,
  id: string,
): Promise<z.output<typeof deletedPaymentObject>> {
  const { db } = w;
  const current = await findPayment(db, caller, id);
  const p = payments;
  const i = invoices;
  const paid = sql`(SELECT coalesce(sum(${p.amount}), 0) FROM ${p} WHERE ${p.invoiceId} = ${current.invoiceId})`;
  const { results } = await writeWithEvents(
    w,
    {
      deleted: db
        .delete(p)
        .where(and(eq(p.id, id), ownedBy(p, caller)))
        .returning({ id: p.id }),
      settle: db
        .update(i)
        .set({
          amountPaid: paid,
          paymentStatus: paymentStatusFor(paid),
          // Still paid only if no payment went: the payment that made it paid is then still there.
          paidOn: sql`CASE WHEN ${paid} = ${i.amountPayable} THEN ${i.paidOn} END`,
        })
        .where(eq(i.id, current.invoiceId)),
    },
    { type: "payment.deleted", object: serializePayment(current), whileExists: [p, p.id] },
  );
  if (results.deleted.length === 0) throw notFound("payment", id);
  return { id, object: "payment", deleted: true };
}
