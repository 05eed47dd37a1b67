ALTER TABLE `account_environments` ADD `einvoicing_peppol_id` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `einvoicing_peppol_id` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `einvoicing_dir3` text;