import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import { batchByName, type Database } from "../db/client";
import { isNotNullViolation } from "../db/errors";
import {
  invoices,
  type PaymentRow,
  paymentInstructions,
  payments,
  type ServedInvoiceRow,
} from "../db/schema";
import { ownedBy } from "../db/scope";
import type { Writer } from "../events/write";
import { writeWithEvents } from "../events/write";
import { ApiError, notFound } from "../http/errors";
import { findInvoice, SERVED_COLUMNS } from "../invoices/find";
import { OWED, paymentStatusFor } from "../invoices/owed";
import { serializeInvoice } from "../invoices/serialize";
import { verifactuFill } from "../invoices/verifactu-fill";
import { nowIso, nowMs } from "../lib/clock";
import { currencyExponent } from "../lib/currencies";
import { accountToday } from "../lib/dates";
import { newId } from "../lib/ids";
import { formatMinor, MAX_MINOR, toMinor } from "../lib/money";
import type { CreatePaymentBody, Payment } from "./schemas";
import { serializePayment } from "./serialize";

const COLUMNS = getTableColumns(payments);
const invalid = (param: string, message: string) => new ApiError("parameter_invalid", message, { param });

/**
 * Whether the invoice, as the statement finds it, takes `amount` more: issued, owed, and
 * `amount_paid + amount` within `amount_payable`.
 */
const takes = (amount: number) =>
  sql`${OWED} AND ${invoices.amountPaid} + ${amount} <= ${invoices.amountPayable}`;

/**
 * 201. The payment's INSERT reads the invoice it is for (`takes`), and the invoice's UPDATE
 * then aborts the whole batch (its events and Idempotency-Key mark included) unless that
 * INSERT happened: D1 runs one batch at a time, so concurrent payments cannot together pass
 * `amount_payable`. A refused write answers what the invoice shows now.
 */
export async function createPayment(
  w: Writer,
  caller: Caller,
  invoiceId: string,
  body: CreatePaymentBody,
): Promise<Payment> {
  const { db } = w;
  const read = await batchByName(db, {
    invoice: db
      .select(SERVED_COLUMNS)
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), ownedBy(invoices, caller)))
      .limit(1),
    instruction:
      body.payment_instruction === undefined
        ? undefined
        : db
            .select({ id: paymentInstructions.id })
            .from(paymentInstructions)
            .where(
              and(eq(paymentInstructions.id, body.payment_instruction), ownedBy(paymentInstructions, caller)),
            )
            .limit(1),
  });
  const invoice = read.invoice[0];
  if (!invoice) throw notFound("invoice", invoiceId);
  const exponent = currencyExponent(invoice.currency) ?? 2;
  const minor = toMinor(body.amount, exponent);
  if (minor === null) {
    throw invalid("amount", `Invalid amount: must have at most ${exponent} decimals in ${invoice.currency}.`);
  }
  const today = accountToday(caller.taxRegime === "es", nowMs());
  const paidOn = body.paid_on ?? today;
  if (paidOn > today) throw invalid("paid_on", `Invalid paid_on: must not be after today (${today}).`);
  if (body.payment_instruction !== undefined && read.instruction?.length === 0) {
    throw invalid("payment_instruction", `No such payment instruction: '${body.payment_instruction}'.`);
  }
  // Beyond any amount payable: refused before it reaches SQLite as a float.
  if (minor > MAX_MINOR) throw refusal(invoice, minor);
  const amount = Number(minor);
  if (invoice.amountPaid + amount > invoice.amountPayable || invoice.status !== "issued") {
    throw refusal(invoice, minor);
  }

  const row: PaymentRow = {
    id: newId("payment"),
    accountId: caller.accountId,
    live: caller.live,
    invoiceId,
    amount,
    currency: invoice.currency,
    paidOn,
    method: body.method ?? "bank_transfer",
    reference: body.reference ?? null,
    paymentInstructionId: body.payment_instruction ?? null,
    createdAt: nowIso(),
  };
  const payment = serializePayment(row);
  const completes = sql`${takes(amount)} AND ${invoices.amountPaid} + ${amount} = ${invoices.amountPayable}`;
  const i = invoices;
  try {
    await writeWithEvents(
      w,
      {
        insert: insertIfTaken(db, row),
        settle: db
          .update(i)
          .set({
            // NULL, which the column refuses, when the INSERT did not happen: the batch aborts.
            amountPaid: sql`CASE WHEN EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = ${row.id}) THEN ${i.amountPaid} + ${amount} END`,
            paymentStatus: paymentStatusFor(sql`${i.amountPaid} + ${amount}`),
            paidOn: sql`CASE WHEN ${i.amountPaid} + ${amount} = ${i.amountPayable} THEN ${paidOn} ELSE ${i.paidOn} END`,
          })
          .where(eq(i.id, invoiceId)),
      },
      { type: "payment.created", object: payment },
      {
        type: "invoice.paid",
        // The invoice after this payment; what may change meanwhile is read by the insert.
        object: serializeInvoice({
          ...invoice,
          amountPaid: invoice.amountPayable,
          paymentStatus: "paid",
          paidOn,
        }),
        fill: paidFill(invoice),
        // Judged before the payment's own statements, on the same state their guard reads.
        whileExists: [i, i.id, completes],
      },
    );
  } catch (err) {
    if (!isNotNullViolation(err, "invoices.amount_paid")) throw err;
    throw refusal(await findInvoice(db, caller, invoiceId), minor);
  }
  return payment;
}

/** `INSERT … SELECT` of `row` from its invoice row, only while the invoice `takes` its amount. */
function insertIfTaken(db: Database, row: PaymentRow) {
  const fields = {} as Record<keyof PaymentRow, SQL.Aliased>;
  for (const [key, value] of Object.entries(row)) {
    const column = COLUMNS[key as keyof PaymentRow];
    fields[key as keyof PaymentRow] = sql`${column.mapToDriverValue(value)}`.as(column.name);
  }
  return db
    .insert(payments)
    .select(
      db
        .select(fields)
        .from(invoices)
        .where(and(eq(invoices.id, row.invoiceId), sql`${takes(row.amount)}`)),
    )
    .returning({ id: payments.id });
}

/** The fields of the `invoice.paid` snapshot another write may have changed since the read. */
function paidFill(invoice: ServedInvoiceRow): Record<string, SQL> {
  const i = invoices;
  const fill: Record<string, SQL> = { "$.corrected_by": sql`json(${i.correctedBy})` };
  // A record's verdict and seal arrive after issuance; an invoice without one never gains one.
  if (invoice.verifactuStatus === null) return fill;
  return { ...fill, ...verifactuFill() };
}

/** Why the invoice, as read, does not take `amount` (minor units). */
function refusal(invoice: ServedInvoiceRow, amount: bigint): ApiError {
  if (invoice.status !== "issued") {
    return new ApiError(
      "invoice_not_payable",
      `Invoice '${invoice.id}' is ${invoice.status}: only an issued invoice takes payments.`,
    );
  }
  if (invoice.paymentStatus === "not_applicable") {
    return new ApiError(
      "payment_not_applicable",
      `Invoice '${invoice.id}' has nothing to pay (amount_payable ≤ 0): it takes no payments.`,
    );
  }
  const exponent = currencyExponent(invoice.currency) ?? 2;
  const remaining = formatMinor(BigInt(Math.max(0, invoice.amountPayable - invoice.amountPaid)), exponent);
  return new ApiError(
    "payment_exceeds_amount_remaining",
    `The amount (${formatMinor(amount, exponent)}) exceeds the invoice's amount_remaining (${remaining} ${invoice.currency}).`,
    { param: "amount" },
  );
}
