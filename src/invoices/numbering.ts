import { and, eq, type SQL, sql } from "drizzle-orm";
import type { InvoiceType } from "../constants";
import { invoices } from "../db/schema";

/** Series used when the request names none (Spanish practice keeps correctives apart). */
export const DEFAULT_SERIES: Record<InvoiceType, string> = {
  ordinary: "INV",
  simplified: "SIM",
  corrective: "COR",
};

/** One gapless counter: per account, environment, series and (customer numbering) customer. */
export type Counter = { accountId: string; live: boolean; series: string; counterKey: string };

/**
 * The counter's next value, read by the statement that takes it. D1 runs a batch as one
 * transaction, one at a time, so concurrent issues into one series queue instead of racing
 * for the same number and retrying.
 */
export function nextCounter(c: Counter): SQL<number> {
  const where = and(
    eq(invoices.accountId, c.accountId),
    eq(invoices.live, c.live),
    eq(invoices.series, c.series),
    eq(invoices.counterKey, c.counterKey),
  );
  return sql<number>`(SELECT coalesce(max(${invoices.counter}), 0) + 1 FROM ${invoices} WHERE ${where})`;
}

/**
 * `INV-0001`, or `F26-ACME-0042` with customer numbering: at least four digits, padded by
 * SQLite's `printf('%04d')` from the counter the same statement takes.
 */
export function invoiceNumber(
  series: string,
  customerPrefix: string | null,
  counter: SQL<number>,
): SQL<string> {
  const head = customerPrefix === null ? `${series}-` : `${series}-${customerPrefix}-`;
  return sql<string>`${head} || printf('%04d', ${counter})`;
}
