import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SIMPLIFIED_BASES, TAX_ID_TYPES, TAX_REGIME_IDS, VERIFICATION_STATUSES } from "../../constants";
import type { Representation } from "../../contracts/verifactu-record";

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    taxRegime: text("tax_regime", { enum: TAX_REGIME_IDS }).notNull(),
    /**
     * A small stable integer per account, set by a trigger on insert (migration 0017): it
     * places the account's customers in their own rowid range of the search index. The implicit
     * rowid would do, but VACUUM may renumber it.
     */
    searchKey: integer("search_key"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("accounts_search_key_idx").on(t.searchKey)],
);

export type AccountRow = typeof accounts.$inferSelect;

/**
 * What one environment of an account has set, so that test activity never shows in what a
 * live key reads (and the reverse): the issuer profile invoices snapshot, and `updated_at`,
 * which moves with the environment's settings (profile, default payment instructions).
 */
export const accountEnvironments = sqliteTable(
  "account_environments",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    legalName: text("legal_name"),
    /** The issuer's current Tax ID object (owner: the account), copied from `tax_ids`; all null when unset. */
    taxIdId: text("tax_id_id"),
    taxIdCountry: text("tax_id_country"),
    taxIdType: text("tax_id_type", { enum: TAX_ID_TYPES }),
    taxIdValue: text("tax_id_value"),
    taxIdVerificationStatus: text("tax_id_verification_status", { enum: VERIFICATION_STATUSES }),
    taxIdVerificationValid: integer("tax_id_verification_valid", { mode: "boolean" }),
    taxIdVerificationCompletedAt: text("tax_id_verification_completed_at"),
    taxIdVerifiedName: text("tax_id_verified_name"),
    taxIdVerifiedAddress: text("tax_id_verified_address"),
    taxIdCreatedAt: text("tax_id_created_at"),
    addressLine1: text("address_line_1"),
    addressLine2: text("address_line_2"),
    addressCity: text("address_city"),
    addressPostalCode: text("address_postal_code"),
    addressState: text("address_state"),
    addressCountry: text("address_country"),
    /** The simplified-invoice limit's basis (its limit: SIMPLIFIED_LIMITS); null is the default, art_4_1. */
    simplifiedBasis: text("simplified_basis", { enum: SIMPLIFIED_BASES }),
    /** The AEAT authorisation (or art. 4.2 note) behind a 3,000 EUR limit. */
    simplifiedReference: text("simplified_reference"),
    /**
     * VERI*FACTU flow control: no request before this instant (epoch ms), AEAT's
     * `TiempoEsperaEnvio` after its last answer, unless 1,000 records wait (src/verifactu/submit.ts).
     */
    verifactuNotBefore: integer("verifactu_not_before"),
    /** One sender per environment: claimed by a consumer for the length of a request (epoch ms). */
    verifactuLeaseUntil: integer("verifactu_lease_until"),
    /** Since when (epoch ms) sending this environment's records fails: an open incident; null when none. */
    verifactuIncidentSince: integer("verifactu_incident_since"),
    /** When AEAT (or the sandbox) last accepted one of its records (epoch ms). */
    verifactuLastAcceptedAt: integer("verifactu_last_accepted_at"),
    /** How the deployment's certificate may file for this account (verifactu-system.md §4); null: not declared. */
    verifactuRepresentation: text("verifactu_representation", { mode: "json" }).$type<Representation>(),
    /** The issuer's Peppol participant id, `<scheme>:<id>` (src/party/einvoicing.ts); null when none. */
    einvoicingPeppolId: text("einvoicing_peppol_id"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.live] })],
);

export type AccountEnvironmentRow = typeof accountEnvironments.$inferSelect;

/**
 * Bytes an environment of an account wrote through the API on `day` (UTC, YYYY-MM-DD): the
 * write budget's counter (src/http/write-budget.ts). One row per environment, reset by the
 * first write of a new day, so it never grows with time.
 */
export const writeBudgets = sqliteTable(
  "write_budgets",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    day: text("day").notNull(),
    bytes: integer("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.live] })],
);
