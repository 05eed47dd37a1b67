CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`invoice_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`paid_on` text NOT NULL,
	`method` text NOT NULL,
	`reference` text,
	`payment_instruction_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_list_idx` ON `payments` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `payments_invoice_idx` ON `payments` (`account_id`,`live`,`invoice_id`,`id`);--> statement-breakpoint
CREATE INDEX `payments_invoice_fk_idx` ON `payments` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `status` text DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `payment_status` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `amount_paid` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `paid_on` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `due_date` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `voided_at` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `void_reason` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `overdue_at` text;--> statement-breakpoint
-- Hand-written: invoices issued before the lifecycle are issued, unpaid (or not applicable), and
-- keep their due date as a column too.
UPDATE `invoices` SET `payment_status` = CASE WHEN `amount_payable` > 0 THEN 'unpaid' ELSE 'not_applicable' END, `due_date` = json_extract(`payment_terms`, '$.due_date');--> statement-breakpoint
CREATE INDEX `invoices_status_idx` ON `invoices` (`account_id`,`live`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_payment_status_idx` ON `invoices` (`account_id`,`live`,`payment_status`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_overdue_job_idx` ON `invoices` (`due_date`) WHERE "invoices"."status" = 'issued' AND "invoices"."payment_status" IN ('unpaid', 'partially_paid') AND "invoices"."overdue_at" IS NULL AND "invoices"."due_date" IS NOT NULL;