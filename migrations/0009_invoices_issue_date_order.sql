-- Numbers and dates of one counter never go backwards (invoices.md, numbering). The issuance
-- checks it against what it read and answers issue_date_out_of_order; this refuses the insert
-- when a concurrent issue took a later date in between (the issuance then reads again). The
-- counter's last invoice carries its latest date, found through invoices_counter_idx.
CREATE TRIGGER `invoices_issue_date_order` BEFORE INSERT ON `invoices`
WHEN (SELECT `issue_date` FROM `invoices`
      WHERE `account_id` = NEW.`account_id` AND `live` = NEW.`live` AND `series` = NEW.`series`
        AND `counter_key` = NEW.`counter_key`
      ORDER BY `counter` DESC LIMIT 1) > NEW.`issue_date`
BEGIN
  SELECT RAISE(ABORT, 'issue_date_out_of_order');
END;
