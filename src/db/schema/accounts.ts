import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TAX_REGIME_IDS } from "../../constants";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  taxRegime: text("tax_regime", { enum: TAX_REGIME_IDS }).notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** API keys: only the SHA-256 of the secret is stored; `live` is fixed by the key's prefix. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    keyHash: text("key_hash").notNull().unique(),
    /** Last four characters, so a key can be recognised in a list without the secret. */
    keyHint: text("key_hint").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);

export type AccountRow = typeof accounts.$inferSelect;

/**
 * What one environment of an account has changed, so that test activity never shows in
 * what a live key reads (and the reverse). `updated_at` moves with the environment's
 * settings (its default payment instructions).
 */
export const accountEnvironments = sqliteTable(
  "account_environments",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    live: integer("live", { mode: "boolean" }).notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.live] })],
);
