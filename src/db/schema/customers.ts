import { getTableColumns } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TAX_ID_TYPES, VERIFICATION_STATUSES } from "../../constants";
import { accounts } from "./accounts";

/** A public-sector customer's DIR3 codes (the three units together; the proposing body optional). */
export type StoredDir3 = {
  accounting_office: string;
  managing_body: string;
  processing_unit: string;
  proposing_body: string | null;
};

/**
 * A customer with its current Tax ID inline (a copy of its `tax_ids` row, verification
 * included): every read of a customer (retrieve, list page, search) is one row of one
 * table, which keeps a list page at `limit + 1` rows read.
 */
export const customers = sqliteTable(
  "customers",
  {
    /**
     * The row's integer key (SQLite's rowid), which the FTS5 search index points at. It is
     * declared so that VACUUM cannot renumber it and break that link; the API never shows it.
     */
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    name: text("name").notNull(),
    invoicePrefix: text("invoice_prefix").notNull(),
    email: text("email"),
    phone: text("phone"),
    addressLine1: text("address_line_1"),
    addressLine2: text("address_line_2"),
    addressCity: text("address_city"),
    addressPostalCode: text("address_postal_code"),
    addressState: text("address_state"),
    addressCountry: text("address_country"),
    taxIdId: text("tax_id_id").notNull(),
    taxIdCountry: text("tax_id_country").notNull(),
    taxIdType: text("tax_id_type", { enum: TAX_ID_TYPES }).notNull(),
    taxIdValue: text("tax_id_value").notNull(),
    taxIdVerificationStatus: text("tax_id_verification_status", { enum: VERIFICATION_STATUSES }),
    taxIdVerificationValid: integer("tax_id_verification_valid", { mode: "boolean" }),
    taxIdVerificationCompletedAt: text("tax_id_verification_completed_at"),
    taxIdVerifiedName: text("tax_id_verified_name"),
    taxIdVerifiedAddress: text("tax_id_verified_address"),
    taxIdCreatedAt: text("tax_id_created_at").notNull(),
    /** The Peppol participant id, `<scheme>:<id>` (src/party/einvoicing.ts); null when none. */
    einvoicingPeppolId: text("einvoicing_peppol_id"),
    /** Public-sector customers' DIR3 codes; null when none. */
    einvoicingDir3: text("einvoicing_dir3", { mode: "json" }).$type<StoredDir3>(),
    /** The `country` list filter: the address country, else the Tax ID country. */
    filterCountry: text("filter_country").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The list order (newest first) inside one account and environment.
    index("customers_list_idx").on(t.accountId, t.live, t.id),
    index("customers_country_idx").on(t.accountId, t.live, t.filterCountry, t.id),
    // Per account and environment, so concurrent creates with one prefix give one 201 and 409s.
    uniqueIndex("customers_invoice_prefix_idx").on(t.accountId, t.live, t.invoicePrefix),
    uniqueIndex("customers_tax_id_idx").on(t.taxIdId),
  ],
);

const { seq: _seq, ...apiColumns } = getTableColumns(customers);
/** Every column but the internal `seq`: what a customer read selects. */
export const customerColumns = apiColumns;
export type CustomerRow = Omit<typeof customers.$inferSelect, "seq">;
