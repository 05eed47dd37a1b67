CREATE TABLE `account_default_payment_instructions` (
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`position` integer NOT NULL,
	`payment_instruction_id` text NOT NULL,
	PRIMARY KEY(`account_id`, `live`, `position`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_instruction_id`) REFERENCES `payment_instructions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_default_payment_instructions_pmi_idx` ON `account_default_payment_instructions` (`payment_instruction_id`);--> statement-breakpoint
CREATE TABLE `payment_instructions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`label` text NOT NULL,
	`type` text NOT NULL,
	`beneficiary` text NOT NULL,
	`iban` text NOT NULL,
	`bic` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_instructions_list_idx` ON `payment_instructions` (`account_id`,`live`,`id`);