import type { Database } from "../db/client";
import type { Scope } from "../events/write";
import { newId } from "../lib/ids";
import { BALANCE_CURRENCY, type Entry, ledgerEvent, ledgerInsert } from "./ledger";
import { serializeBalanceTransaction } from "./serialize";

/**
 * The usage debit of one issued invoice, for the invoice's own batch: the statement and its
 * `billing.balance_transaction.created` event. `sourceEvent` is the invoice's `invoice.issued`
 * event id. A negative balance does not block issuing (compliance.md): the debit is recorded
 * whatever the balance.
 *
 * @example
 * const debit = usageDebit(db, caller, { priceCents: 10, sourceEvent: issuedId, invoiceId, createdAt });
 * await writeWithEvents(w, { insert, debit: debit.statement }, issued, debit.event);
 */
export function usageDebit(
  db: Database,
  scope: Scope,
  input: { priceCents: number; sourceEvent: string; invoiceId: string; createdAt: string },
) {
  const entry: Entry = {
    id: newId("balanceTransaction"),
    accountId: scope.accountId,
    live: scope.live,
    type: "usage",
    amount: -input.priceCents,
    currency: BALANCE_CURRENCY,
    description: `Invoice ${input.invoiceId} issued`,
    sourceEvent: input.sourceEvent,
    createdAt: input.createdAt,
  };
  const pending = serializeBalanceTransaction({ ...entry, seq: 0, balanceAfter: 0 });
  return { statement: ledgerInsert(db, entry), event: ledgerEvent(entry, pending) };
}
