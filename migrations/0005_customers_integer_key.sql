-- customers gets an explicit INTEGER PRIMARY KEY (`seq`): the FTS5 index points at the
-- rowid, and only a declared integer key is safe from renumbering by VACUUM. Hand-edited
-- from drizzle-kit's output: `seq` is copied from the old rowid (so the search index stays
-- valid), no PRAGMA (nothing references customers), and the search triggers, dropped with
-- the old table, are created again.
CREATE TABLE `__new_customers` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
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
INSERT INTO `__new_customers`("seq", "id", "account_id", "live", "name", "invoice_prefix", "email", "phone", "address_line_1", "address_line_2", "address_city", "address_postal_code", "address_state", "address_country", "tax_id_id", "tax_id_country", "tax_id_type", "tax_id_value", "tax_id_verification_status", "tax_id_verification_valid", "tax_id_verification_completed_at", "tax_id_created_at", "filter_country", "created_at", "updated_at") SELECT rowid, "id", "account_id", "live", "name", "invoice_prefix", "email", "phone", "address_line_1", "address_line_2", "address_city", "address_postal_code", "address_state", "address_country", "tax_id_id", "tax_id_country", "tax_id_type", "tax_id_value", "tax_id_verification_status", "tax_id_verification_valid", "tax_id_verification_completed_at", "tax_id_created_at", "filter_country", "created_at", "updated_at" FROM `customers`;--> statement-breakpoint
DROP TABLE `customers`;--> statement-breakpoint
ALTER TABLE `__new_customers` RENAME TO `customers`;--> statement-breakpoint
CREATE UNIQUE INDEX `customers_id_unique` ON `customers` (`id`);--> statement-breakpoint
CREATE INDEX `customers_list_idx` ON `customers` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `customers_country_idx` ON `customers` (`account_id`,`live`,`filter_country`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_invoice_prefix_idx` ON `customers` (`account_id`,`live`,`invoice_prefix`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_tax_id_idx` ON `customers` (`tax_id_id`);--> statement-breakpoint
CREATE TRIGGER `customers_fts_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO `customers_fts` (rowid, `id`, `name`, `tax_id_value`, `email`)
  VALUES (new.`seq`, new.`id`, new.`name`, new.`tax_id_value`, coalesce(new.`email`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_update` AFTER UPDATE OF `name`, `tax_id_value`, `email` ON `customers` BEGIN
  UPDATE `customers_fts` SET `name` = new.`name`, `tax_id_value` = new.`tax_id_value`, `email` = coalesce(new.`email`, '')
  WHERE rowid = new.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM `customers_fts` WHERE rowid = old.`seq`;
END;
