import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { invoices } from "../db/schema";
import type { Scope } from "../events/write";

// An account and environment's records form one chain, ordered by `verifactu_seq`. The
// issuing INSERT takes its place with these subqueries: D1 runs one batch at a time, so
// concurrent issues queue for the next place instead of forking the chain, and the unique
// index `invoices_verifactu_chain_idx` refuses a second record in one place if that ever
// changed.

const inChain = (s: Scope) =>
  and(eq(invoices.accountId, s.accountId), eq(invoices.live, s.live), isNotNull(invoices.verifactuSeq));

/** The chain's next place, read by the statement that takes it. */
export function nextSeq(s: Scope): SQL<number> {
  return sql<number>`(SELECT coalesce(max(${invoices.verifactuSeq}), 0) + 1 FROM ${invoices} WHERE ${inChain(s)})`;
}

/**
 * The generation time (epoch ms): the clock, or the previous record's time when this
 * isolate's clock is behind it, so times never go backwards along the chain.
 */
export function nextGeneratedAt(s: Scope, now: number): SQL<number> {
  const last = sql`(SELECT ${invoices.verifactuGeneratedAt} FROM ${invoices} WHERE ${inChain(s)} ORDER BY ${invoices.verifactuSeq} DESC LIMIT 1)`;
  return sql<number>`max(${now}, coalesce(${last}, 0))`;
}

/** An epoch-ms SQL value as the API writes instants (`2026-11-23T10:00:00.000Z`). */
export function isoTimestamp(ms: SQL<number>): SQL<string> {
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch')`;
}
