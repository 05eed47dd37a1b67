import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TAX_REGIME_IDS } from "../../constants";

/*
 * The directory (src/db/shards.ts): which shard holds an account, and which account a key
 * opens. Its tables are read from the `DIRECTORY` binding only. Every database gets the same
 * migrations, so they exist (empty) on the shards too, and the shards' tables on the
 * directory; the default deployment uses one database as directory and only shard.
 */

/** An account's place: the shard (a D1 binding named in `SHARDS`) holding its data. */
export const directoryAccounts = sqliteTable("directory_accounts", {
  accountId: text("account_id").primaryKey(),
  shard: text("shard").notNull(),
  /** The account's regime, fixed at creation: the caller's, known without reading the shard. */
  taxRegime: text("tax_regime", { enum: TAX_REGIME_IDS }).notNull(),
  createdAt: text("created_at").notNull(),
  /**
   * Set while the account moves to another shard (docs/scaling.md): its writes are refused
   * (503 `account_moving`), its reads still served from the shard it is on.
   */
  movingSince: text("moving_since"),
});

/**
 * API keys: only the SHA-256 of the secret is stored; `live` is fixed by the key's prefix.
 * No foreign key to `accounts`: the account lives on its shard, which may be another database.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    live: integer("live", { mode: "boolean" }).notNull(),
    keyHash: text("key_hash").notNull().unique(),
    /** Last four characters, so a key can be recognised in a list without the secret. */
    keyHint: text("key_hint").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);
