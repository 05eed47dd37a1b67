import { type SQL, sql } from "drizzle-orm";
import { invoices } from "../db/schema";

/**
 * Issued and still owed: it takes payments, and it is overdue once its due date passes. Written
 * as the partial indexes on `invoices` state it (literal values), so queries that add it use them.
 */
export const OWED = sql`${invoices.status} = 'issued' AND ${invoices.paymentStatus} IN ('unpaid', 'partially_paid')`;

/** An issued invoice's `payment_status` once its payments sum to `paid` (minor units, SQL). */
export const paymentStatusFor = (paid: SQL) =>
  sql`CASE WHEN ${paid} = 0 THEN 'unpaid' WHEN ${paid} < ${invoices.amountPayable} THEN 'partially_paid' ELSE 'paid' END`;
