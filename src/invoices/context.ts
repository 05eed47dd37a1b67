import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { InvoiceNumbering } from "../constants";
import type { Database } from "../db/client";
import {
  type AccountEnvironmentRow,
  type AccountRow,
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
import type { Caller } from "../env";
import { ownedBy } from "../lib/scope";

/** Everything an issuance reads, in one round trip. */
export type IssueContext = {
  account: AccountRow;
  profile: AccountEnvironmentRow | null;
  /** The account's default instructions, in order (current at issuance). */
  defaults: PaymentInstructionRow[];
  customer: CustomerRow | null;
  corrected: InvoiceRow | null;
  /** The instructions named in `payment_terms.options` that exist for the caller. */
  options: PaymentInstructionRow[];
  /** One invoice of the series (they all share type and numbering), if any. */
  seriesHead: { type: InvoiceRow["type"]; numbering: InvoiceRow["numbering"] } | null;
  /** The last number of the counter `counterKey`. */
  last: { counter: number; issueDate: string } | null;
};

export type ContextQuery = {
  /** The customer the request names; a corrective without one takes its corrected invoice's. */
  customerId: string | null;
  correctedId: string | null;
  optionIds: string[];
  series: string;
  numbering: InvoiceNumbering;
};

export async function loadIssueContext(db: Database, caller: Caller, q: ContextQuery): Promise<IssueContext> {
  const d = accountDefaultPaymentInstructions;
  const none = "\u0000"; // an id no row has: keeps the batch's shape fixed
  // Resolved in SQL, so a corrective's customer costs no second round trip.
  const customerId = sql`coalesce(${q.customerId}, (SELECT c.customer_id FROM invoices AS c WHERE c.id = ${q.correctedId ?? none}))`;
  const counterKey = q.numbering === "customer" ? sql`coalesce(${customerId}, '')` : sql`''`;
  const [account, profile, defaults, customer, corrected, options, head, last] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, caller.accountId)).limit(1),
    db
      .select()
      .from(accountEnvironments)
      .where(
        and(eq(accountEnvironments.accountId, caller.accountId), eq(accountEnvironments.live, caller.live)),
      ),
    db
      .select({ pi: paymentInstructions })
      .from(d)
      .innerJoin(paymentInstructions, eq(paymentInstructions.id, d.paymentInstructionId))
      .where(and(eq(d.accountId, caller.accountId), eq(d.live, caller.live)))
      .orderBy(asc(d.position)),
    db
      .select(customerColumns)
      .from(customers)
      .where(and(eq(customers.id, customerId), ownedBy(customers, caller)))
      .limit(1),
    db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, q.correctedId ?? none), ownedBy(invoices, caller)))
      .limit(1),
    db
      .select()
      .from(paymentInstructions)
      .where(
        and(
          inArray(paymentInstructions.id, q.optionIds.length ? q.optionIds : [none]),
          ownedBy(paymentInstructions, caller),
        ),
      ),
    db
      .select({ type: invoices.type, numbering: invoices.numbering })
      .from(invoices)
      .where(and(ownedBy(invoices, caller), eq(invoices.series, q.series)))
      .limit(1),
    db
      .select({ counter: invoices.counter, issueDate: invoices.issueDate })
      .from(invoices)
      .where(
        and(ownedBy(invoices, caller), eq(invoices.series, q.series), eq(invoices.counterKey, counterKey)),
      )
      .orderBy(desc(invoices.counter))
      .limit(1),
  ]);
  return {
    account: account[0] as AccountRow,
    profile: profile[0] ?? null,
    defaults: defaults.map((r) => r.pi),
    customer: customer[0] ?? null,
    corrected: corrected[0] ?? null,
    options,
    seriesHead: head[0] ?? null,
    last: last[0] ?? null,
  };
}
