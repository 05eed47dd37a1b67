import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { InvoiceNumbering } from "../constants";
import type { Caller } from "../contracts/caller";
import { batchByName, type Database } from "../db/client";
import {
  type AccountEnvironmentRow,
  accountDefaultPaymentInstructions,
  accountEnvironments,
  accounts,
  type CustomerRow,
  customerColumns,
  customers,
  type InvoiceRow,
  invoices,
  type PaymentInstructionRow,
  paymentInstructions,
} from "../db/schema";
import { ownedBy } from "../db/scope";
import type { TaxRegimeId } from "../tax/types";
import type { IssueRequest } from "./build";

/** Everything an issuance reads, in one round trip. */
export type IssueContext = {
  account: { name: string; taxRegime: TaxRegimeId };
  profile: AccountEnvironmentRow | null;
  /** The account's default instructions, in order (current at issuance). */
  defaults: PaymentInstructionRow[];
  customer: CustomerRow | null;
  corrected: InvoiceRow | null;
  /** The instructions named in `payment_terms.options` that exist for the caller. */
  options: PaymentInstructionRow[];
  /** One invoice of the series (they all share type and numbering), if any. */
  seriesHead: { type: InvoiceRow["type"]; numbering: InvoiceRow["numbering"] } | null;
  /** The issue date of the counter's last number, if it has one. */
  lastIssueDate: string | null;
};

type ContextQuery = {
  /** The customer the request names; a corrective without one takes its corrected invoice's. */
  customerId: string | null;
  correctedId: string | null;
  /** `payment_terms.options` as given; undefined when omitted (the defaults may apply). */
  optionIds: string[] | undefined;
  /** Only an ordinary invoice without `options` takes the account's defaults. */
  wantsDefaults: boolean;
  series: string;
  numbering: InvoiceNumbering;
};

/**
 * One batch holding only the reads this request needs (each statement costs the Worker its
 * SQL building and D1 its parsing), in one round trip.
 */
async function loadIssueContext(db: Database, caller: Caller, q: ContextQuery): Promise<IssueContext> {
  const d = accountDefaultPaymentInstructions;
  // Resolved in SQL, so a corrective's customer costs no second round trip.
  const customerId: SQL | null =
    q.customerId !== null
      ? sql`${q.customerId}`
      : q.correctedId !== null
        ? sql`(SELECT c.customer_id FROM invoices AS c WHERE c.id = ${q.correctedId})`
        : null;
  const counterKey = q.numbering === "customer" && customerId ? sql`coalesce(${customerId}, '')` : sql`''`;
  const lastIssueDate = db
    .select({ issueDate: invoices.issueDate })
    .from(invoices)
    .where(and(ownedBy(invoices, caller), eq(invoices.series, q.series), eq(invoices.counterKey, counterKey)))
    .orderBy(desc(invoices.counter))
    .limit(1);

  const r = await batchByName(db, {
    issuer: db
      .select({ name: accounts.name, profile: accountEnvironments })
      .from(accounts)
      .leftJoin(
        accountEnvironments,
        and(eq(accountEnvironments.accountId, accounts.id), eq(accountEnvironments.live, caller.live)),
      )
      .where(eq(accounts.id, caller.accountId)),
    series: db
      .select({
        type: invoices.type,
        numbering: invoices.numbering,
        lastIssueDate: sql<string | null>`(${lastIssueDate})`,
      })
      .from(invoices)
      .where(and(ownedBy(invoices, caller), eq(invoices.series, q.series)))
      .limit(1),
    customer: customerId
      ? db
          .select(customerColumns)
          .from(customers)
          .where(and(eq(customers.id, customerId), ownedBy(customers, caller)))
          .limit(1)
      : undefined,
    corrected: q.correctedId
      ? db
          .select()
          .from(invoices)
          .where(and(eq(invoices.id, q.correctedId), ownedBy(invoices, caller)))
          .limit(1)
      : undefined,
    options: q.optionIds?.length
      ? db
          .select()
          .from(paymentInstructions)
          .where(and(inArray(paymentInstructions.id, q.optionIds), ownedBy(paymentInstructions, caller)))
      : undefined,
    defaults: q.wantsDefaults
      ? db
          .select({ pi: paymentInstructions })
          .from(d)
          .innerJoin(paymentInstructions, eq(paymentInstructions.id, d.paymentInstructionId))
          .where(and(eq(d.accountId, caller.accountId), eq(d.live, caller.live)))
          .orderBy(asc(d.position))
      : undefined,
  });
  const issuer = r.issuer[0];
  if (!issuer) throw new Error(`Account ${caller.accountId} of an authenticated key is missing.`);
  const head = r.series[0];
  return {
    account: { name: issuer.name, taxRegime: caller.taxRegime },
    profile: issuer.profile,
    defaults: r.defaults?.map((row) => row.pi) ?? [],
    customer: r.customer?.[0] ?? null,
    corrected: r.corrected?.[0] ?? null,
    options: r.options ?? [],
    seriesHead: head ? { type: head.type, numbering: head.numbering } : null,
    lastIssueDate: head?.lastIssueDate ?? null,
  };
}

/** The context an issuance request (or a draft's preview) reads. */
export function loadContextFor(db: Database, caller: Caller, req: IssueRequest): Promise<IssueContext> {
  return loadIssueContext(db, caller, {
    customerId: req.customer ?? null,
    correctedId: req.corrects?.invoice ?? null,
    optionIds: req.options,
    wantsDefaults: req.type === "ordinary" && req.options === undefined,
    series: req.series,
    numbering: req.numbering,
  });
}
