-- npm run key:revoke: revokes one API key, chosen by ?1 (the SHA-256 of the key, --key) or
-- ?2 (its id, --id), as of ?3 (now, ISO 8601). A key revoked before keeps its first
-- revoked_at. Returns the key, so the script can tell found from unknown.
UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?3)
WHERE key_hash = ?1 OR id = ?2
RETURNING id, account_id, live, key_hint, revoked_at;
