CREATE TABLE `write_budgets` (
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`day` text NOT NULL,
	`bytes` integer NOT NULL,
	PRIMARY KEY(`account_id`, `live`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
