-- npm run balance:top-up, run on the account's shard (the script reads it from the directory
-- first): credits ?4 cents to the usage balance of account ?2 in environment ?3 (0 test, 1 live) as balance transaction ?1, described ?5, at ?6 (now, ISO 8601), with
-- its billing.balance_transaction.created event ?7. balance_after and the chain position are
-- read from the newest row by the INSERT itself, as the API's debits do (src/balance/ledger.ts),
-- so a top-up racing an invoice issue loses no cent. An unknown account inserts nothing; an id
-- inserted before is left alone (the local seed re-runs it). The event is written only with its
-- transaction; it waits for the cron sweep (dispatched_at NULL) when a destination listens,
-- since a script cannot reach the queue. Amounts are formatted as the API's serializer does.
INSERT OR IGNORE INTO balance_transactions
  (id, account_id, live, seq, type, amount, currency, balance_after, description, source_event, created_at)
SELECT ?1, id, ?3,
  (SELECT coalesce(max(seq), 0) + 1 FROM balance_transactions WHERE account_id = ?2 AND live = ?3),
  'top_up', ?4, 'EUR',
  coalesce((SELECT balance_after FROM balance_transactions WHERE account_id = ?2 AND live = ?3 ORDER BY seq DESC LIMIT 1), 0) + ?4,
  ?5, NULL, ?6
FROM accounts WHERE id = ?2
RETURNING id, account_id, live, type, amount, balance_after, description, created_at;
INSERT OR IGNORE INTO events
  (id, account_id, live, type, data, related_object_id, related_object_type, created_at, dispatched_at)
SELECT ?7, b.account_id, b.live, 'billing.balance_transaction.created',
  json_object('id', b.id, 'object', 'balance_transaction',
    'live', json(CASE WHEN b.live THEN 'true' ELSE 'false' END), 'type', b.type,
    'amount', printf('%s%d.%02d', CASE WHEN b.amount < 0 THEN '-' ELSE '' END, abs(b.amount) / 100, abs(b.amount) % 100),
    'currency', b.currency,
    'balance_after', printf('%s%d.%02d', CASE WHEN b.balance_after < 0 THEN '-' ELSE '' END, abs(b.balance_after) / 100, abs(b.balance_after) % 100),
    'description', b.description, 'source_event', NULL, 'created_at', b.created_at),
  b.id, 'balance_transaction', ?6,
  CASE WHEN EXISTS (SELECT 1 FROM event_destinations d WHERE d.account_id = b.account_id AND d.live = b.live AND d.status = 'enabled') THEN NULL ELSE ?6 END
FROM balance_transactions b
WHERE b.id = ?1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.related_object_id = ?1);
