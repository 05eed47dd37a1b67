declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** The second shard (vitest.config.ts). */
      DB_2: D1Database;
    }
  }
}

export {};
