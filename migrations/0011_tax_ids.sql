CREATE TABLE `tax_ids` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` text NOT NULL,
	`country` text NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`created_at` text NOT NULL,
	`verification_status` text,
	`verification_valid` integer,
	`verification_completed_at` text,
	`verified_name` text,
	`verified_address` text,
	`verification_queued_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tax_ids_list_idx` ON `tax_ids` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `tax_ids_unqueued_idx` ON `tax_ids` (`created_at`,`id`) WHERE "tax_ids"."verification_status" = 'pending' AND "tax_ids"."verification_queued_at" IS NULL;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_verified_name` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_verified_address` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `tax_id_verified_name` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `tax_id_verified_address` text;