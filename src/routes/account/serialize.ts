import type { AccountRow } from "../../db/schema";

/** The account as seen from one environment (the key's). */
export function serializeAccount(row: AccountRow, live: boolean, defaultPaymentInstructions: string[]) {
  return {
    id: row.id,
    object: "account" as const,
    live,
    name: row.name,
    tax_regime: row.taxRegime,
    default_payment_instructions: defaultPaymentInstructions,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
