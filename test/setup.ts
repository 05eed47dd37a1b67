import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage is isolated per test file, so every file starts from empty, migrated databases: the
// two shards and the directory (vitest.config.ts), all with the same migrations.
for (const db of [env.DB, env.DB_2, env.DIRECTORY]) await applyD1Migrations(db, env.TEST_MIGRATIONS);
