-- Hand-written (drizzle-kit has no triggers). Drafts (lifecycle.md) live in `invoices` with
-- status 'draft' and no number: `number` '' and `counter` 0 under a `counter_key` of their own
-- id, so the counter index never sees them. A draft binds no series, checks no date order and
-- locks no customer prefix: those are issuance rules. The triggers of 0007 and 0009 are
-- recreated to look at, and act on, issued and void invoices only.
DROP TRIGGER `invoices_series_binding`;--> statement-breakpoint
CREATE TRIGGER `invoices_series_binding` BEFORE INSERT ON `invoices`
WHEN NEW.`status` <> 'draft'
 AND (SELECT `type` || ':' || `numbering` FROM `invoices`
      WHERE `account_id` = NEW.`account_id` AND `live` = NEW.`live` AND `series` = NEW.`series`
        AND `status` <> 'draft' LIMIT 1)
     <> NEW.`type` || ':' || NEW.`numbering`
BEGIN
  SELECT RAISE(ABORT, 'series_mismatch');
END;
--> statement-breakpoint
DROP TRIGGER `invoices_customer_prefix`;--> statement-breakpoint
CREATE TRIGGER `invoices_customer_prefix` BEFORE INSERT ON `invoices`
WHEN NEW.`numbering` = 'customer' AND NEW.`status` <> 'draft'
 AND substr(NEW.`number`, 1, length(NEW.`series`) + 1) || (SELECT `invoice_prefix` FROM `customers` WHERE `id` = NEW.`customer_id`) || '-'
     <> substr(NEW.`number`, 1, length(NEW.`series`) + 2 + length((SELECT `invoice_prefix` FROM `customers` WHERE `id` = NEW.`customer_id`)))
BEGIN
  SELECT RAISE(ABORT, 'invoice_prefix_changed');
END;
--> statement-breakpoint
DROP TRIGGER `invoices_issue_date_order`;--> statement-breakpoint
CREATE TRIGGER `invoices_issue_date_order` BEFORE INSERT ON `invoices`
WHEN NEW.`status` <> 'draft'
 AND (SELECT `issue_date` FROM `invoices`
      WHERE `account_id` = NEW.`account_id` AND `live` = NEW.`live` AND `series` = NEW.`series`
        AND `counter_key` = NEW.`counter_key` AND `status` <> 'draft'
      ORDER BY `counter` DESC LIMIT 1) > NEW.`issue_date`
BEGIN
  SELECT RAISE(ABORT, 'issue_date_out_of_order');
END;
--> statement-breakpoint
DROP TRIGGER `customers_invoice_prefix_lock`;--> statement-breakpoint
CREATE TRIGGER `customers_invoice_prefix_lock` BEFORE UPDATE OF `invoice_prefix` ON `customers`
WHEN OLD.`invoice_prefix` <> NEW.`invoice_prefix`
 AND EXISTS (SELECT 1 FROM `invoices` WHERE `customer_id` = OLD.`id` AND `status` <> 'draft')
BEGIN
  SELECT RAISE(ABORT, 'invoice_prefix_locked');
END;
