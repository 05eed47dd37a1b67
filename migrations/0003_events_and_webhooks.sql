CREATE TABLE `delivery_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`destination_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`outcome` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer,
	`error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_destination_idx` ON `delivery_attempts` (`destination_id`,`id`);--> statement-breakpoint
CREATE INDEX `delivery_attempts_event_idx` ON `delivery_attempts` (`event_id`,`id`);--> statement-breakpoint
CREATE TABLE `event_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`enabled_events` text NOT NULL,
	`status` text NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `event_destinations_list_idx` ON `event_destinations` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`live` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`related_object_id` text NOT NULL,
	`related_object_type` text NOT NULL,
	`created_at` text NOT NULL,
	`dispatched_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_list_idx` ON `events` (`account_id`,`live`,`id`);--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`account_id`,`live`,`type`,`id`);--> statement-breakpoint
CREATE INDEX `events_undispatched_idx` ON `events` (`dispatched_at`,`id`);