import { SIMPLIFIED_LIMITS } from "../constants";
import { addressOf } from "../party/address";
import { NO_TAX_ID, taxIdOf } from "../tax-ids/columns";
import type { AccountState } from "./load";
import type { Account } from "./schemas";

/** The account as seen from one environment (the key's): its profile and defaults are that environment's. */
export function serializeAccount({ account, environment, defaults }: AccountState, live: boolean): Account {
  // The later of an account-wide change and a change of this environment's settings.
  const updatedAt =
    environment && environment.updatedAt > account.updatedAt ? environment.updatedAt : account.updatedAt;
  const basis = environment?.simplifiedBasis ?? "art_4_1";
  return {
    id: account.id,
    object: "account",
    live,
    name: account.name,
    tax_regime: account.taxRegime,
    default_payment_instructions: defaults,
    legal_name: environment?.legalName ?? null,
    tax_id: taxIdOf(environment ?? NO_TAX_ID, { type: "account", id: account.id }, live),
    address: environment ? addressOf(environment) : null,
    einvoicing: { peppol_id: environment?.einvoicingPeppolId ?? null },
    simplified_invoices: {
      limit: SIMPLIFIED_LIMITS[basis],
      basis,
      reference: environment?.simplifiedReference ?? null,
    },
    verifactu: { representation: environment?.verifactuRepresentation ?? null },
    created_at: account.createdAt,
    updated_at: updatedAt,
  };
}
