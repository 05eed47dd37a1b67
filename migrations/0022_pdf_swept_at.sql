DROP INDEX `invoices_pdf_pending_idx`;--> statement-breakpoint
ALTER TABLE `invoices` ADD `pdf_swept_at` text;--> statement-breakpoint
CREATE INDEX `invoices_pdf_pending_idx` ON `invoices` (`created_at`) WHERE "invoices"."pdf_generated_at" IS NULL AND "invoices"."pdf_swept_at" IS NULL;