DROP INDEX `events_unswept_idx`;--> statement-breakpoint
CREATE INDEX `events_unswept_account_idx` ON `events` (`account_id`,`created_at`,`id`) WHERE "events"."dispatched_at" IS NULL AND "events"."swept_at" IS NULL;--> statement-breakpoint
ALTER TABLE `event_destinations` ADD `circuit_until` text;--> statement-breakpoint
ALTER TABLE `event_destinations` ADD `lease_until` text;