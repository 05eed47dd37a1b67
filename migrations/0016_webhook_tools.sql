DROP INDEX `delivery_attempts_destination_idx`;--> statement-breakpoint
CREATE INDEX `delivery_attempts_log_idx` ON `delivery_attempts` (`destination_id`,`id`) WHERE "delivery_attempts"."outcome" in ('succeeded', 'failed');--> statement-breakpoint
CREATE INDEX `delivery_attempts_log_event_idx` ON `delivery_attempts` (`destination_id`,`event_id`,`id`) WHERE "delivery_attempts"."outcome" in ('succeeded', 'failed');--> statement-breakpoint
ALTER TABLE `event_destinations` ADD `previous_secret` text;--> statement-breakpoint
ALTER TABLE `event_destinations` ADD `previous_secret_expires_at` text;