-- The directory (src/db/shards.ts). api_keys loses its foreign key to accounts (an account
-- may live on another database); nothing references api_keys, so no PRAGMA is needed.
-- The backfill places every existing account on the first shard, `DB`: a deployment from
-- before shards keeps one database as its directory and only shard.
CREATE TABLE `directory_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`tax_regime` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `__new_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`key_hash` text NOT NULL,
	`key_hint` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
INSERT INTO `__new_api_keys`("id", "account_id", "live", "key_hash", "key_hint", "created_at", "revoked_at") SELECT "id", "account_id", "live", "key_hash", "key_hint", "created_at", "revoked_at" FROM `api_keys`;--> statement-breakpoint
DROP TABLE `api_keys`;--> statement-breakpoint
ALTER TABLE `__new_api_keys` RENAME TO `api_keys`;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`);--> statement-breakpoint
INSERT INTO `directory_accounts` (`account_id`, `shard`, `tax_regime`, `created_at`) SELECT `id`, 'DB', `tax_regime`, `created_at` FROM `accounts`;
