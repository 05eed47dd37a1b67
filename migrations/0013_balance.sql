CREATE TABLE `balance_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`balance_after` integer NOT NULL,
	`description` text NOT NULL,
	`source_event` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `balance_transactions_chain_idx` ON `balance_transactions` (`account_id`,`live`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `balance_transactions_source_event_idx` ON `balance_transactions` (`source_event`) WHERE "balance_transactions"."source_event" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `balance_transactions_list_idx` ON `balance_transactions` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `balance_transactions_type_idx` ON `balance_transactions` (`account_id`,`live`,`type`,`id`);--> statement-breakpoint
-- Hand-written: the ledger is append-only. A correction is a new transaction, never an edit.
CREATE TRIGGER `balance_transactions_no_update` BEFORE UPDATE ON `balance_transactions`
BEGIN SELECT RAISE(ABORT, 'balance_transactions_append_only'); END;--> statement-breakpoint
CREATE TRIGGER `balance_transactions_no_delete` BEFORE DELETE ON `balance_transactions`
BEGIN SELECT RAISE(ABORT, 'balance_transactions_append_only'); END;
