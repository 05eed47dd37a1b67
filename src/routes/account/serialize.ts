import type { AccountRow } from "../../db/schema";
import type { Account } from "./schemas";

/** The account as seen from one environment (the key's). */
export function serializeAccount(
  row: AccountRow,
  live: boolean,
  defaultPaymentInstructions: string[],
): Account {
  return {
    id: row.id,
    object: "account",
    live,
    name: row.name,
    tax_regime: row.taxRegime,
    default_payment_instructions: defaultPaymentInstructions,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
