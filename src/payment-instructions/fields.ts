import { type SQL, sql } from "drizzle-orm";
import { paymentInstructions as pi } from "../db/schema";

/** Each updatable field: where it is in the request and the API object, and its column. */
export const FIELDS = [
  ["$.label", "label"],
  ["$.bank_transfer.beneficiary", "beneficiary"],
  ["$.bank_transfer.iban", "iban"],
  ["$.bank_transfer.bic", "bic"],
] as const;

/**
 * Every field of an instruction's event snapshot as SQL over the row its write finds: what a
 * concurrent request changed meanwhile shows. A delete's event takes them all; an update's
 * those its request does not name.
 */
export function storedInstructionFill(): Record<string, SQL> {
  const fill: Record<string, SQL> = {};
  for (const [path, key] of FIELDS) fill[path] = sql`${pi[key]}`;
  fill["$.updated_at"] = sql`${pi.updatedAt}`;
  return fill;
}
