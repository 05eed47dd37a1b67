ALTER TABLE `accounts` ADD `search_key` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_search_key_idx` ON `accounts` (`search_key`);--> statement-breakpoint
-- Hand-written from here (drizzle-kit has no triggers or virtual tables). Existing accounts
-- are numbered in id order; a new one takes the next number, whatever inserts it.
UPDATE `accounts` SET `search_key` = (SELECT count(*) FROM `accounts` a WHERE a.`id` <= `accounts`.`id`);
--> statement-breakpoint
CREATE TRIGGER `accounts_search_key` AFTER INSERT ON `accounts` WHEN new.`search_key` IS NULL BEGIN
  UPDATE `accounts` SET `search_key` = (SELECT coalesce(max(`search_key`), 0) + 1 FROM `accounts`)
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
-- Tenant-scoped search (issue 15). The FTS5 trigram index is rebuilt with rowids that place
-- each account and environment in its own range: ((account search_key × 2 + live) << 32) + the
-- customer's seq. A search constrains the rowid to the caller's range, so FTS5 enumerates only
-- the caller's matches, in seq order, and stops after a page (ORDER BY rowid DESC LIMIT n),
-- however common the term is and however many other tenants hold it. `country` holds the
-- list filter as `country:ES` (three characters or more, so the trigram tokenizer indexes it).
DROP TRIGGER `customers_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `customers_fts_update`;
--> statement-breakpoint
DROP TRIGGER `customers_fts_delete`;
--> statement-breakpoint
DROP TABLE `customers_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `customers_fts` USING fts5(`id`, `name`, `tax_id_value`, `email`, `country`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `customers_fts` (rowid, `id`, `name`, `tax_id_value`, `email`, `country`)
SELECT ((SELECT a.`search_key` FROM `accounts` a WHERE a.`id` = c.`account_id`) * 2 + c.`live`) * 4294967296 + c.`seq`,
       c.`id`, c.`name`, c.`tax_id_value`, coalesce(c.`email`, ''), 'country:' || c.`filter_country`
FROM `customers` c;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO `customers_fts` (rowid, `id`, `name`, `tax_id_value`, `email`, `country`)
  VALUES (((SELECT `search_key` FROM `accounts` WHERE `id` = new.`account_id`) * 2 + new.`live`) * 4294967296 + new.`seq`,
          new.`id`, new.`name`, new.`tax_id_value`, coalesce(new.`email`, ''), 'country:' || new.`filter_country`);
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_update` AFTER UPDATE OF `name`, `tax_id_value`, `email`, `filter_country` ON `customers` BEGIN
  UPDATE `customers_fts`
  SET `name` = new.`name`, `tax_id_value` = new.`tax_id_value`, `email` = coalesce(new.`email`, ''),
      `country` = 'country:' || new.`filter_country`
  WHERE rowid = ((SELECT `search_key` FROM `accounts` WHERE `id` = new.`account_id`) * 2 + new.`live`) * 4294967296 + new.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_delete` AFTER DELETE ON `customers` BEGIN
  DELETE FROM `customers_fts`
  WHERE rowid = ((SELECT `search_key` FROM `accounts` WHERE `id` = old.`account_id`) * 2 + old.`live`) * 4294967296 + old.`seq`;
END;
