CREATE TABLE `account_environments` (
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `live`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
