CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`response_content_type` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_key_idx` ON `idempotency_keys` (`account_id`,`live`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`type` text NOT NULL,
	`series` text NOT NULL,
	`numbering` text NOT NULL,
	`counter_key` text NOT NULL,
	`counter` integer NOT NULL,
	`number` text NOT NULL,
	`issue_date` text NOT NULL,
	`operation_date` text,
	`supply_tax_date` text NOT NULL,
	`withholding_tax_date` text NOT NULL,
	`currency` text NOT NULL,
	`customer_id` text,
	`issuer` text NOT NULL,
	`customer` text,
	`lines` text NOT NULL,
	`tax_breakdown` text NOT NULL,
	`subtotal` integer NOT NULL,
	`total_tax_added` integer NOT NULL,
	`total_tax_withheld` integer NOT NULL,
	`total` integer NOT NULL,
	`amount_payable` integer NOT NULL,
	`payment_terms` text NOT NULL,
	`corrects_invoice_id` text,
	`corrects_reason` text,
	`corrected_by` text DEFAULT '[]' NOT NULL,
	`notes` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`corrects_invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoices_list_idx` ON `invoices` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_counter_idx` ON `invoices` (`account_id`,`live`,`series`,`counter_key`,`counter`);--> statement-breakpoint
CREATE INDEX `invoices_customer_idx` ON `invoices` (`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_type_idx` ON `invoices` (`account_id`,`live`,`type`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_series_idx` ON `invoices` (`account_id`,`live`,`series`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_corrects_idx` ON `invoices` (`corrects_invoice_id`);--> statement-breakpoint
ALTER TABLE `account_environments` ADD `legal_name` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_id` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_country` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_type` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_value` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_verification_status` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_verification_valid` integer;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_verification_completed_at` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `tax_id_created_at` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_line_1` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_line_2` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_city` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_postal_code` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_state` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `address_country` text;--> statement-breakpoint
CREATE INDEX `events_related_idx` ON `events` (`account_id`,`live`,`related_object_id`,`id`);--> statement-breakpoint
-- Hand-written (drizzle-kit has no triggers): a series holds one invoice type and one
-- numbering mode. Checking one existing invoice of the series suffices (they all agree),
-- so this reads one index row; it catches two concurrent first invoices of a new series.
CREATE TRIGGER `invoices_series_binding` BEFORE INSERT ON `invoices`
WHEN (SELECT `type` || ':' || `numbering` FROM `invoices`
      WHERE `account_id` = NEW.`account_id` AND `live` = NEW.`live` AND `series` = NEW.`series` LIMIT 1)
     <> NEW.`type` || ':' || NEW.`numbering`
BEGIN
  SELECT RAISE(ABORT, 'series_mismatch');
END;
--> statement-breakpoint
-- A customer-numbered invoice carries its customer's invoice_prefix in its number: refuse the
-- insert if the prefix changed after the issuance read it (the issuance then retries).
CREATE TRIGGER `invoices_customer_prefix` BEFORE INSERT ON `invoices`
WHEN NEW.`numbering` = 'customer'
 AND substr(NEW.`number`, 1, length(NEW.`series`) + 1) || (SELECT `invoice_prefix` FROM `customers` WHERE `id` = NEW.`customer_id`) || '-'
     <> substr(NEW.`number`, 1, length(NEW.`series`) + 2 + length((SELECT `invoice_prefix` FROM `customers` WHERE `id` = NEW.`customer_id`)))
BEGIN
  SELECT RAISE(ABORT, 'invoice_prefix_changed');
END;
--> statement-breakpoint
-- The seed's rule: a customer's invoice_prefix is immutable once an invoice names the
-- customer. Enforced here so that a prefix change racing a first invoice cannot slip through.
CREATE TRIGGER `customers_invoice_prefix_lock` BEFORE UPDATE OF `invoice_prefix` ON `customers`
WHEN OLD.`invoice_prefix` <> NEW.`invoice_prefix`
 AND EXISTS (SELECT 1 FROM `invoices` WHERE `customer_id` = OLD.`id`)
BEGIN
  SELECT RAISE(ABORT, 'invoice_prefix_locked');
END;
