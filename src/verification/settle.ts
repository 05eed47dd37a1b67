import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { accountEnvironments, customers, type TaxIdRow, taxIds } from "../db/schema";
import { type Writer, writeWithEvents } from "../events/write";
import { nowIso } from "../lib/clock";
import { serializeTaxId } from "../tax-ids/serialize";

/** How a verification ends: the registry's answer, or no answer after every attempt. */
export type Outcome =
  | { status: "completed"; valid: boolean; name: string | null; address: string | null }
  | { status: "failed" };

/** Written as a literal, so that the owner's guard and the event's read the same state. */
const PENDING: SQL = sql`${taxIds.verificationStatus} = 'pending'`;

/**
 * The owner's inline copy, while the Tax ID is still its current one: a replaced Tax ID
 * keeps its verification in `tax_ids` alone. By primary key, then the Tax ID.
 */
function ownerUpdate(db: Database, row: TaxIdRow) {
  const set = {
    taxIdVerificationStatus: row.verificationStatus,
    taxIdVerificationValid: row.verificationValid,
    taxIdVerificationCompletedAt: row.verificationCompletedAt,
    taxIdVerifiedName: row.verifiedName,
    taxIdVerifiedAddress: row.verifiedAddress,
  };
  if (row.ownerType === "customer") {
    const c = customers;
    return db
      .update(c)
      .set(set)
      .where(and(eq(c.id, row.ownerId), eq(c.taxIdId, row.id), eq(c.taxIdVerificationStatus, "pending")));
  }
  const a = accountEnvironments;
  return db
    .update(a)
    .set(set)
    .where(
      and(
        eq(a.accountId, row.accountId),
        eq(a.live, row.live),
        eq(a.taxIdId, row.id),
        eq(a.taxIdVerificationStatus, "pending"),
      ),
    );
}

/**
 * Ends a pending verification: the Tax ID's row, its owner's inline copy (while current) and
 * the event `tax_id.verification.completed` or `.failed`, whose `data.object` is the Tax ID
 * as `GET /v1/tax-ids/{id}` now shows it, in one batch. Only a verification still pending
 * moves, so a duplicate message writes nothing and records no second event. Returns whether
 * this call ended it.
 *
 * @example
 * await settleVerification(w, row, { status: "completed", valid: true, name: "ACME SL", address: null });
 */
export async function settleVerification(w: Writer, row: TaxIdRow, outcome: Outcome): Promise<boolean> {
  const completed = outcome.status === "completed";
  const settled: TaxIdRow = {
    ...row,
    verificationStatus: outcome.status,
    verificationValid: completed ? outcome.valid : null,
    verificationCompletedAt: nowIso(),
    verifiedName: completed ? outcome.name : null,
    verifiedAddress: completed ? outcome.address : null,
  };
  const { results } = await writeWithEvents(
    w,
    {
      taxId: w.db
        .update(taxIds)
        .set({
          verificationStatus: settled.verificationStatus,
          verificationValid: settled.verificationValid,
          verificationCompletedAt: settled.verificationCompletedAt,
          verifiedName: settled.verifiedName,
          verifiedAddress: settled.verifiedAddress,
        })
        .where(and(eq(taxIds.id, row.id), PENDING))
        .returning({ id: taxIds.id }),
      owner: ownerUpdate(w.db, settled),
    },
    {
      type: completed ? "tax_id.verification.completed" : "tax_id.verification.failed",
      object: serializeTaxId(settled),
      whileExists: [taxIds, taxIds.id, PENDING],
    },
  );
  return results.taxId.length > 0;
}
