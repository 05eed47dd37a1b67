import { env } from "cloudflare:workers";
import { expect, onTestFinished, vi } from "vitest";

type AccountTable =
  | "customers"
  | "payment_instructions"
  | "event_destinations"
  | "events"
  | "invoices"
  | "balance_transactions";

/** How many rows of `table` belong to the account: "a rejected request writes nothing". */
export async function countRows(table: AccountTable, accountId: string): Promise<number> {
  const n = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
    .bind(accountId)
    .first<number>("n");
  return n ?? 0;
}

/**
 * Waits until a delivery consumer has taken every event of the account that waits for one
 * (the outbox's `dispatched_at` mark): what the account-move drain checks.
 *
 * @example
 * await eventsTaken(account.id);
 */
export async function eventsTaken(accountId: string): Promise<void> {
  await vi.waitFor(
    async () => {
      // Both shards of the suite (vitest.config.ts).
      for (const shard of [env.DB, env.DB_2]) {
        const row = await shard
          .prepare("SELECT count(*) AS n FROM events WHERE account_id = ? AND dispatched_at IS NULL")
          .bind(accountId)
          .first<{ n: number }>();
        expect(row?.n).toBe(0);
      }
    },
    { timeout: 5000, interval: 10 },
  );
}

/**
 * Renames `table` away for the rest of the test: every D1 statement on it fails, as in an
 * outage. Restored when the test finishes (or earlier, by calling what it returns).
 */
export async function breakTable(table: string): Promise<() => Promise<void>> {
  await env.DB.prepare(`ALTER TABLE ${table} RENAME TO ${table}_away`).run();
  let restored = false;
  const restore = async () => {
    if (restored) return;
    restored = true;
    await env.DB.prepare(`ALTER TABLE ${table}_away RENAME TO ${table}`).run();
  };
  onTestFinished(restore);
  return restore;
}

/**
 * Runs `fn` while a trigger makes D1 fail the writes `when` names, as in an outage that hits
 * one statement of a batch (the whole batch then rolls back).
 *
 * @example
 * await failingWith("BEFORE INSERT ON customers", () => api.post("/v1/customers", body));
 */
export async function failingWith<T>(when: string, fn: () => Promise<T>): Promise<T> {
  await env.DB.exec(`CREATE TRIGGER test_failure ${when} BEGIN SELECT RAISE(ABORT, 'failure'); END`);
  try {
    return await fn();
  } finally {
    await env.DB.exec("DROP TRIGGER test_failure");
  }
}

/**
 * Runs `before` ahead of each batch that requests' D1 sessions send (given the batch's SQL and
 * its number), to commit a concurrent change at an exact point of a request. Undone by
 * `vi.restoreAllMocks()`.
 *
 * @example
 * beforeBatches(async (_, n) => { if (n === 2) await env.DB.prepare("DELETE …").run(); });
 */
export function beforeBatches(before: (sql: string, n: number) => Promise<unknown>): void {
  const open = env.DB.withSession.bind(env.DB);
  let n = 0;
  vi.spyOn(env.DB, "withSession").mockImplementation((constraint) => {
    const session = open(constraint);
    const batch = session.batch.bind(session);
    session.batch = async (statements) => {
      await before(statements.map((s) => (s as unknown as { statement: string }).statement).join(";"), ++n);
      return batch(statements);
    };
    return session;
  });
}
