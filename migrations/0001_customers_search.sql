-- Substring search for `GET /v1/customers?q=`: an FTS5 trigram index over the searched
-- fields, kept in step with `customers` by triggers (so no write path can forget it).
-- Its rowid is the customer's rowid. drizzle-kit does not model virtual tables or
-- triggers, hence this hand-written migration.
CREATE VIRTUAL TABLE `customers_fts` USING fts5(`id`, `name`, `tax_id_value`, `email`, tokenize = 'trigram');
--> statement-breakpoint
CREATE TRIGGER `customers_fts_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO `customers_fts` (rowid, `id`, `name`, `tax_id_value`, `email`)
  VALUES (new.rowid, new.`id`, new.`name`, new.`tax_id_value`, coalesce(new.`email`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_update` AFTER UPDATE OF `name`, `tax_id_value`, `email` ON `customers` BEGIN
  UPDATE `customers_fts` SET `name` = new.`name`, `tax_id_value` = new.`tax_id_value`, `email` = coalesce(new.`email`, '')
  WHERE rowid = new.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM `customers_fts` WHERE rowid = old.rowid;
END;
