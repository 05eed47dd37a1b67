import type { PaymentRow } from "../db/schema";
import { currencyExponent } from "../lib/currencies";
import { formatMinor } from "../lib/money";
import type { Payment } from "./schemas";

/** The one place a payment row becomes the API object: minor units become a decimal string. */
export function serializePayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    object: "payment",
    live: row.live,
    invoice: row.invoiceId,
    amount: formatMinor(BigInt(row.amount), currencyExponent(row.currency) ?? 2),
    currency: row.currency,
    paid_on: row.paidOn,
    method: row.method,
    reference: row.reference,
    payment_instruction: row.paymentInstructionId,
    created_at: row.createdAt,
  };
}
