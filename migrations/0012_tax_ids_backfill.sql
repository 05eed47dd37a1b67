-- Every Tax ID that exists before the tax_ids table: the current one of each customer and of
-- each account environment's issuer profile (replaced ones were not kept). Their verification
-- is copied as it stands (null: no check ran before this table); only Tax IDs created from now
-- on are sent to a registry.
INSERT INTO `tax_ids` (`id`, `account_id`, `live`, `owner_type`, `owner_id`, `country`, `type`, `value`, `created_at`, `verification_status`, `verification_valid`, `verification_completed_at`)
SELECT `tax_id_id`, `account_id`, `live`, 'customer', `id`, `tax_id_country`, `tax_id_type`, `tax_id_value`, `tax_id_created_at`, `tax_id_verification_status`, `tax_id_verification_valid`, `tax_id_verification_completed_at`
FROM `customers`;
--> statement-breakpoint
INSERT INTO `tax_ids` (`id`, `account_id`, `live`, `owner_type`, `owner_id`, `country`, `type`, `value`, `created_at`, `verification_status`, `verification_valid`, `verification_completed_at`)
SELECT `tax_id_id`, `account_id`, `live`, 'account', `account_id`, `tax_id_country`, `tax_id_type`, `tax_id_value`, `tax_id_created_at`, `tax_id_verification_status`, `tax_id_verification_valid`, `tax_id_verification_completed_at`
FROM `account_environments`
WHERE `tax_id_id` IS NOT NULL;
