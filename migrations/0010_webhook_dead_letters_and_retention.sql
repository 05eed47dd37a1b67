CREATE TABLE `webhook_dead_letters` (
	`event_id` text NOT NULL,
	`destination_id` text NOT NULL,
	`reason` text NOT NULL,
	`attempt` integer NOT NULL,
	`created_at` text NOT NULL,
	`redrive_requested_at` text,
	PRIMARY KEY(`event_id`, `destination_id`)
);
--> statement-breakpoint
CREATE INDEX `webhook_dead_letters_created_idx` ON `webhook_dead_letters` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_dead_letters_redrive_idx` ON `webhook_dead_letters` (`redrive_requested_at`) WHERE "webhook_dead_letters"."redrive_requested_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `delivery_attempts_created_idx` ON `delivery_attempts` (`created_at`);--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);