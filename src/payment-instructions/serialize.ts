import type { PaymentInstructionRow } from "../db/schema";
import type { PaymentInstruction } from "./schemas";

/** The one place a payment instruction row becomes the API object. */
export function serializePaymentInstruction(row: PaymentInstructionRow): PaymentInstruction {
  return {
    id: row.id,
    object: "payment_instruction",
    live: row.live,
    account: row.accountId,
    label: row.label,
    type: row.type,
    bank_transfer: { beneficiary: row.beneficiary, iban: row.iban, bic: row.bic },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
