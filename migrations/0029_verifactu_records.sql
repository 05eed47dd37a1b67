CREATE TABLE `verifactu_records` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`issuer_nif` text NOT NULL,
	`seq` integer NOT NULL,
	`invoice_id` text NOT NULL,
	`kind` text NOT NULL,
	`position` integer NOT NULL,
	`status` text NOT NULL,
	`record` text NOT NULL,
	`hash` text,
	`generated_at` integer NOT NULL,
	`incident` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verifactu_records_chain_idx` ON `verifactu_records` (`account_id`,`live`,`issuer_nif`,`seq`);--> statement-breakpoint
CREATE INDEX `verifactu_records_pending_idx` ON `verifactu_records` (`account_id`,`live`,`generated_at`,`seq`) WHERE "verifactu_records"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `verifactu_records_invoice_idx` ON `verifactu_records` (`invoice_id`);--> statement-breakpoint
DROP INDEX `invoices_verifactu_chain_idx`;--> statement-breakpoint
DROP INDEX `invoices_verifactu_pending_idx`;--> statement-breakpoint
ALTER TABLE `invoices` ADD `verifactu_records` text;--> statement-breakpoint
-- The records kept on invoices until now move to the chain table (one chain per account,
-- environment and issuer NIF: places renumbered within each NIF), and each invoice gets the
-- summary of its one record.
INSERT INTO `verifactu_records` (`id`, `account_id`, `live`, `issuer_nif`, `seq`, `invoice_id`, `kind`, `position`, `status`, `record`, `hash`, `generated_at`, `errors`)
SELECT 'vfr_' || substr(`id`, 5), `account_id`, `live`, json_extract(`verifactu_record`, '$.IDFactura.IDEmisorFactura'),
  row_number() OVER (PARTITION BY `account_id`, `live`, json_extract(`verifactu_record`, '$.IDFactura.IDEmisorFactura') ORDER BY `verifactu_seq`),
  `id`, 'registration', 0, `verifactu_status`, `verifactu_record`, `verifactu_hash`, `verifactu_generated_at`, coalesce(`verifactu_errors`, '[]')
FROM `invoices` WHERE `verifactu_seq` IS NOT NULL;--> statement-breakpoint
UPDATE `invoices` SET `verifactu_records` = json_array(json_object(
  'id', 'vfr_' || substr(`id`, 5), 'kind', 'registration', 'status', `verifactu_status`,
  'hash', `verifactu_hash`, 'previous_hash', `verifactu_previous_hash`,
  'generated_at', strftime('%Y-%m-%dT%H:%M:%fZ', `verifactu_generated_at` / 1000.0, 'unixepoch'),
  'submitted_at', NULL, 'csv', NULL, 'registered_at', NULL,
  'errors', json(coalesce(`verifactu_errors`, '[]'))
)) WHERE `verifactu_seq` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_seq`;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_generated_at`;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_record`;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_hash`;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_previous_hash`;--> statement-breakpoint
ALTER TABLE `invoices` DROP COLUMN `verifactu_errors`;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `verifactu_lease_until` integer;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `verifactu_incident_since` integer;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `verifactu_last_accepted_at` integer;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `verifactu_representation` text;