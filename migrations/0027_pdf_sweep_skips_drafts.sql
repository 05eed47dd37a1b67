DROP INDEX `invoices_pdf_pending_idx`;--> statement-breakpoint
CREATE INDEX `invoices_pdf_pending_idx` ON `invoices` (`created_at`) WHERE "invoices"."pdf_generated_at" IS NULL AND "invoices"."pdf_swept_at" IS NULL AND "invoices"."status" <> 'draft';--> statement-breakpoint
-- Hand-written: only an issued invoice can be corrected (lifecycle.md). The issuance checks what
-- it read and answers 400 on corrects.invoice; this refuses the insert when a void committed in
-- between (the issuance then reads again and answers). The void's guard covers the other order
-- (it refuses an invoice whose corrected_by is not empty).
CREATE TRIGGER `invoices_corrects_issued` BEFORE INSERT ON `invoices`
WHEN NEW.`corrects_invoice_id` IS NOT NULL AND NEW.`status` <> 'draft'
 AND (SELECT `status` FROM `invoices` WHERE `id` = NEW.`corrects_invoice_id`) <> 'issued'
BEGIN
  SELECT RAISE(ABORT, 'corrected_not_issued');
END;
