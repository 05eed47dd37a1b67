import { and, eq, type SQL, sql } from "drizzle-orm";
import type { RecordSummary } from "../contracts/verifactu-record";
import type { Database } from "../db/client";
import { accountEnvironments, invoices, verifactuRecords } from "../db/schema";
import type { Scope } from "../events/write";

// A chain is an account, environment and issuer NIF's records, ordered by `seq`
// (verifactu-system.md §6). A record's INSERT takes its place with these subqueries: D1 runs one
// batch at a time, so concurrent writers queue for the next place instead of forking the chain,
// and the unique index `verifactu_records_chain_idx` refuses a second record in one place if
// that ever changed.

export type Chain = Scope & { nif: string };

const r = verifactuRecords;
const inChain = (c: Chain) => and(eq(r.accountId, c.accountId), eq(r.live, c.live), eq(r.issuerNif, c.nif));

/** The chain's next place, read by the statement that takes it. */
function nextSeq(c: Chain): SQL<number> {
  return sql<number>`(SELECT coalesce(max(${r.seq}), 0) + 1 FROM ${r} WHERE ${inChain(c)})`;
}

/**
 * The generation time (epoch ms): the clock, or the previous record's time when this
 * isolate's clock is behind it, so times never go backwards along the chain.
 */
function nextGeneratedAt(c: Chain, now: number): SQL<number> {
  const last = sql`(SELECT ${r.generatedAt} FROM ${r} WHERE ${inChain(c)} ORDER BY ${r.seq} DESC LIMIT 1)`;
  return sql<number>`max(${now}, coalesce(${last}, 0))`;
}

/** An epoch-ms SQL value as the API writes instants (`2026-11-23T10:00:00.000Z`). */
export function isoTimestamp(ms: SQL | SQL.Aliased | typeof r.generatedAt): SQL<string> {
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch')`;
}

export type NewRecord = {
  id: string;
  chain: Chain;
  invoiceId: string;
  kind: RecordSummary["kind"];
  /** The record's body as JSON (SQL, so that it may read the invoice's number). */
  body: SQL<string>;
  now: number;
  /** Only while this holds of the invoice row is the record written (a guard; SQL). */
  when: SQL;
};

/**
 * The two statements that add a record to its chain and its summary to its invoice, in this
 * order, for a batch (and the record's generation time, for the batch's event): the record's INSERT takes the chain's next place and time, is marked
 * `incident` while the environment's incident is open (Orden HAC/1177/2024 art. 16.4), and
 * happens only when `when` holds of the invoice row; the summary follows only if it did.
 */
export function addRecord(db: Database, n: NewRecord) {
  const { chain } = n;
  const incident = sql<boolean>`coalesce((SELECT ${accountEnvironments.verifactuIncidentSince} IS NOT NULL FROM ${accountEnvironments} WHERE ${and(eq(accountEnvironments.accountId, chain.accountId), eq(accountEnvironments.live, chain.live))}), 0)`;
  const insert = db.insert(r).select(
    db
      .select({
        id: sql`${n.id}`.as("id"),
        accountId: sql`${chain.accountId}`.as("account_id"),
        live: sql`${chain.live ? 1 : 0}`.as("live"),
        issuerNif: sql`${chain.nif}`.as("issuer_nif"),
        seq: sql`${nextSeq(chain)}`.as("seq"),
        invoiceId: invoices.id,
        kind: sql`${n.kind}`.as("kind"),
        position: sql`json_array_length(coalesce(${invoices.verifactuRecords}, '[]'))`.as("position"),
        status: sql`'pending'`.as("status"),
        record: sql`${n.body}`.as("record"),
        hash: sql`NULL`.as("hash"),
        generatedAt: sql`${nextGeneratedAt(chain, n.now)}`.as("generated_at"),
        incident: sql`${incident}`.as("incident"),
        attempts: sql`0`.as("attempts"),
        errors: sql`'[]'`.as("errors"),
      })
      .from(invoices)
      .where(and(eq(invoices.id, n.invoiceId), n.when)),
  );
  const added = sql`(SELECT ${summaryObject()} FROM ${r} WHERE ${r.id} = ${n.id})`;
  const summarize = db
    .update(invoices)
    .set({
      verifactuRecords: sql`json_insert(coalesce(${invoices.verifactuRecords}, '[]'), '$[#]', json(${added}))`,
      ...(n.kind !== "cancellation" && { verifactuStatus: "pending" as const }),
    })
    .where(and(eq(invoices.id, n.invoiceId), sql`EXISTS (SELECT 1 FROM ${r} WHERE ${r.id} = ${n.id})`));
  // The record's time for an event of the same batch: events are written before the batch's
  // other statements (events/write.ts), when the chain's last record is still the one the
  // INSERT will follow, so this is the time the INSERT takes.
  const generatedAt = isoTimestamp(nextGeneratedAt(chain, n.now));
  return { insert, summarize, generatedAt };
}

/** A record row's summary as the invoice keeps it, in SQL (the row read as `verifactu_records`). */
function summaryObject(): SQL {
  return sql`json_object('id', ${r.id}, 'kind', ${r.kind}, 'status', ${r.status}, 'hash', NULL, 'previous_hash', NULL, 'generated_at', ${isoTimestamp(r.generatedAt)}, 'submitted_at', NULL, 'csv', NULL, 'registered_at', NULL, 'errors', json('[]'))`;
}

/**
 * Changes the summary at `position` of invoice `invoiceId`'s `verifactu_records` (one
 * `json_set` with each field given), and the invoice's `verifactu_status` when the record is a
 * registration or subsanación whose status changes.
 */
export function updateSummary(
  db: Database,
  invoiceId: string,
  position: number,
  fields: Partial<Omit<RecordSummary, "id" | "kind">>,
  kind: RecordSummary["kind"],
) {
  const args: SQL[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const json = name === "errors" ? sql`json(${JSON.stringify(value)})` : sql`${value}`;
    args.push(sql`${`$[${position}].${name}`}, ${json}`);
  }
  return db
    .update(invoices)
    .set({
      verifactuRecords: sql`json_set(${invoices.verifactuRecords}, ${sql.join(args, sql`, `)})`,
      ...(kind !== "cancellation" && fields.status && { verifactuStatus: fields.status }),
    })
    .where(eq(invoices.id, invoiceId));
}

/** A record's summary as it is written: pending, unsealed, unsent. */
export function pendingSummary(id: string, kind: RecordSummary["kind"], now: number): RecordSummary {
  return {
    id,
    kind,
    status: "pending",
    hash: null,
    previous_hash: null,
    generated_at: new Date(now).toISOString(),
    submitted_at: null,
    csv: null,
    registered_at: null,
    errors: [],
  };
}
