ALTER TABLE `account_environments` ADD `verifactu_not_before` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_seq` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_generated_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_record` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_hash` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_previous_hash` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_status` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_errors` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_verifactu_chain_idx` ON `invoices` (`account_id`,`live`,`verifactu_seq`) WHERE "invoices"."verifactu_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `invoices_verifactu_pending_idx` ON `invoices` (`account_id`,`live`,`verifactu_seq`) WHERE "invoices"."verifactu_status" = 'pending';