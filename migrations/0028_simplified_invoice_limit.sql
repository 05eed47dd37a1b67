ALTER TABLE `account_environments` ADD `simplified_basis` text;--> statement-breakpoint
ALTER TABLE `account_environments` ADD `simplified_reference` text;