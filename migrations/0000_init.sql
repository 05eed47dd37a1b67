CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tax_regime` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`key_hash` text NOT NULL,
	`key_hint` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`name` text NOT NULL,
	`invoice_prefix` text NOT NULL,
	`email` text,
	`phone` text,
	`address_line_1` text,
	`address_line_2` text,
	`address_city` text,
	`address_postal_code` text,
	`address_state` text,
	`address_country` text,
	`tax_id_id` text NOT NULL,
	`tax_id_country` text NOT NULL,
	`tax_id_type` text NOT NULL,
	`tax_id_value` text NOT NULL,
	`tax_id_verification_status` text,
	`tax_id_verification_valid` integer,
	`tax_id_verification_completed_at` text,
	`tax_id_created_at` text NOT NULL,
	`filter_country` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_list_idx` ON `customers` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `customers_country_idx` ON `customers` (`account_id`,`live`,`filter_country`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_invoice_prefix_idx` ON `customers` (`account_id`,`live`,`invoice_prefix`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_tax_id_idx` ON `customers` (`tax_id_id`);