DROP INDEX `events_undispatched_idx`;--> statement-breakpoint
ALTER TABLE `events` ADD `swept_at` text;--> statement-breakpoint
CREATE INDEX `events_unswept_idx` ON `events` (`created_at`,`id`) WHERE "events"."dispatched_at" IS NULL AND "events"."swept_at" IS NULL;--> statement-breakpoint
DROP INDEX `tax_ids_unqueued_idx`;--> statement-breakpoint
CREATE INDEX `tax_ids_unswept_idx` ON `tax_ids` (`created_at`,`id`) WHERE "tax_ids"."verification_status" = 'pending' AND "tax_ids"."verification_queued_at" IS NULL AND "tax_ids"."verification_swept_at" IS NULL;