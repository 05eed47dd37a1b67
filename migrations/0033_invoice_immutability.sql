-- Hand-written: issued invoices and sealed VERI*FACTU records are fiscal records (RD 1619/2012
-- art. 6, RD 1007/2023 art. 8): the database refuses to delete them or to change what they say,
-- whatever the code above it does, as it does for the ledger (0013). A draft is free.
--
-- The one escape: `fiscal_moves`, a row per account that `npm run account:move` copied to
-- another shard, written on the source after the directory switched (scripts/account-move/
-- move.ts). Only then may the source's copies of that account's invoices and records go. No
-- application code writes it; a row is cleared on the target when an account moves back.
-- (Hand-written and outside the Drizzle schema, like the search index: only the move and
-- these triggers read it.)
CREATE TABLE `fiscal_moves` (
  `account_id` text PRIMARY KEY NOT NULL,
  `to_shard` text NOT NULL,
  `moved_at` text NOT NULL
);--> statement-breakpoint
CREATE TRIGGER `invoices_issued_no_delete` BEFORE DELETE ON `invoices`
WHEN OLD.`status` <> 'draft'
 AND NOT EXISTS (SELECT 1 FROM `fiscal_moves` WHERE `account_id` = OLD.`account_id`)
BEGIN
  SELECT RAISE(ABORT, 'invoice_immutable');
END;--> statement-breakpoint
-- What the lifecycle changes on an issued invoice: `status` from issued to void, `voided_at`,
-- `void_reason`, `payment_status`, `amount_paid`, `paid_on`, `overdue_at`, `corrected_by`,
-- `pdf_generated_at`, `pdf_swept_at`, `verifactu_status`, `verifactu_records` (the records'
-- summary) and `archived_at`. Every other column is what the invoice says, and stays.
CREATE TRIGGER `invoices_issued_immutable` BEFORE UPDATE ON `invoices`
WHEN OLD.`status` <> 'draft' AND (
     NEW.`status` IS NOT OLD.`status` AND NOT (OLD.`status` = 'issued' AND NEW.`status` = 'void')
  OR NEW.`id` IS NOT OLD.`id`
  OR NEW.`account_id` IS NOT OLD.`account_id`
  OR NEW.`live` IS NOT OLD.`live`
  OR NEW.`type` IS NOT OLD.`type`
  OR NEW.`series` IS NOT OLD.`series`
  OR NEW.`numbering` IS NOT OLD.`numbering`
  OR NEW.`counter_key` IS NOT OLD.`counter_key`
  OR NEW.`counter` IS NOT OLD.`counter`
  OR NEW.`number` IS NOT OLD.`number`
  OR NEW.`issue_date` IS NOT OLD.`issue_date`
  OR NEW.`operation_date` IS NOT OLD.`operation_date`
  OR NEW.`supply_tax_date` IS NOT OLD.`supply_tax_date`
  OR NEW.`withholding_tax_date` IS NOT OLD.`withholding_tax_date`
  OR NEW.`currency` IS NOT OLD.`currency`
  OR NEW.`customer_id` IS NOT OLD.`customer_id`
  OR NEW.`issuer` IS NOT OLD.`issuer`
  OR NEW.`customer` IS NOT OLD.`customer`
  OR NEW.`lines` IS NOT OLD.`lines`
  OR NEW.`tax_breakdown` IS NOT OLD.`tax_breakdown`
  OR NEW.`subtotal` IS NOT OLD.`subtotal`
  OR NEW.`total_tax_added` IS NOT OLD.`total_tax_added`
  OR NEW.`total_tax_withheld` IS NOT OLD.`total_tax_withheld`
  OR NEW.`total` IS NOT OLD.`total`
  OR NEW.`amount_payable` IS NOT OLD.`amount_payable`
  OR NEW.`payment_terms` IS NOT OLD.`payment_terms`
  OR NEW.`due_date` IS NOT OLD.`due_date`
  OR NEW.`corrects_invoice_id` IS NOT OLD.`corrects_invoice_id`
  OR NEW.`corrects_reason` IS NOT OLD.`corrects_reason`
  OR NEW.`notes` IS NOT OLD.`notes`
  OR NEW.`created_at` IS NOT OLD.`created_at`
  OR NEW.`draft_request` IS NOT OLD.`draft_request`
)
BEGIN
  SELECT RAISE(ABORT, 'invoice_immutable');
END;--> statement-breakpoint
-- The archive holds the invoice as it stands: a void or a new VERI*FACTU record (a
-- cancellation, a subsanación) is a new state, whose objects the archive adds
-- (src/archive/). Recursive triggers are off: this UPDATE fires no trigger of its own table
-- but the BEFORE UPDATE check above, which lets `archived_at` change.
CREATE TRIGGER `invoices_archive_stale` AFTER UPDATE OF `status`, `verifactu_records` ON `invoices`
WHEN OLD.`archived_at` IS NOT NULL AND (
     NEW.`status` IS NOT OLD.`status`
  OR json_array_length(coalesce(NEW.`verifactu_records`, '[]')) <> json_array_length(coalesce(OLD.`verifactu_records`, '[]'))
)
BEGIN
  UPDATE `invoices` SET `archived_at` = NULL WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
-- A VERI*FACTU record is never deleted, and once sealed (`hash` set) what it says stays: only
-- its submission state (`status`, `attempts`, `errors`, `incident`) moves, and a
-- cancellation's `SinRegistroPrevio`, outside its hash, set when it is first sent
-- (src/verifactu/submit.ts: known only once the registration's verdict is in).
CREATE TRIGGER `verifactu_records_no_delete` BEFORE DELETE ON `verifactu_records`
WHEN NOT EXISTS (SELECT 1 FROM `fiscal_moves` WHERE `account_id` = OLD.`account_id`)
BEGIN
  SELECT RAISE(ABORT, 'verifactu_record_immutable');
END;--> statement-breakpoint
CREATE TRIGGER `verifactu_records_sealed` BEFORE UPDATE ON `verifactu_records`
WHEN OLD.`hash` IS NOT NULL AND (
     NEW.`hash` IS NOT OLD.`hash`
  OR json_remove(NEW.`record`, '$.SinRegistroPrevio') IS NOT json_remove(OLD.`record`, '$.SinRegistroPrevio')
  OR NEW.`id` IS NOT OLD.`id`
  OR NEW.`account_id` IS NOT OLD.`account_id`
  OR NEW.`live` IS NOT OLD.`live`
  OR NEW.`issuer_nif` IS NOT OLD.`issuer_nif`
  OR NEW.`seq` IS NOT OLD.`seq`
  OR NEW.`invoice_id` IS NOT OLD.`invoice_id`
  OR NEW.`kind` IS NOT OLD.`kind`
  OR NEW.`position` IS NOT OLD.`position`
  OR NEW.`generated_at` IS NOT OLD.`generated_at`
)
BEGIN
  SELECT RAISE(ABORT, 'verifactu_record_immutable');
END;--> statement-breakpoint
-- The escape's own rows are kept: a move back clears its account's (move.ts), nothing else.
CREATE TRIGGER `fiscal_moves_no_update` BEFORE UPDATE ON `fiscal_moves`
BEGIN SELECT RAISE(ABORT, 'fiscal_moves_append_only'); END;
