import { env } from "cloudflare:workers";
import topUpTemplate from "../../scripts/balance-top-up.sql";
import type { BalanceTransaction } from "../../src/balance/schemas";
import { nowIso } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { type ApiClient, expectStatus } from "./api";
import type { List } from "./types";

export type { BalanceTransaction };

/** The statements of scripts/balance-top-up.sql, each with the parameters it names. */
const STATEMENTS = topUpTemplate
  .replace(/^--.*\n/gm, "")
  .split(/;\s*\n/)
  .map((s) => s.trim())
  .filter(Boolean);

/**
 * What `npm run balance:top-up -- --account <id> --mode <mode> --amount <eur>` runs, as the
 * script runs it, on the account's shard (DB unless given). Returns the RETURNING row of the
 * ledger INSERT (none: unknown account).
 */
export async function topUp(
  accountId: string,
  live: boolean,
  cents: number,
  description = "Top-up",
  shard: "DB" | "DB_2" = "DB",
) {
  const params = [
    newId("balanceTransaction"),
    accountId,
    live ? 1 : 0,
    cents,
    description,
    nowIso(),
    newId("event"),
  ];
  const db = env[shard];
  const results = await db.batch(
    STATEMENTS.map((sql) => {
      const used = Math.max(...[...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
      return db.prepare(sql).bind(...params.slice(0, used));
    }),
  );
  return (results[0]?.results ?? []) as { id: string; balance_after: number }[];
}

/** Every balance transaction of the key's environment, newest first (at most 100). */
export async function transactions(api: ApiClient, query = ""): Promise<BalanceTransaction[]> {
  const res = await api.get(`/v1/balance-transactions?limit=100${query}`);
  expectStatus(res, 200);
  return (res.body as List<BalanceTransaction>).data;
}

/** `available` of GET /v1/balance. */
export async function available(api: ApiClient): Promise<string> {
  const res = await api.get("/v1/balance");
  expectStatus(res, 200);
  return (res.body as { available: string }).available;
}

/** The scope's ledger rows in chain order (what the API does not show: `seq`). */
export async function chain(accountId: string, live: boolean) {
  const { results } = await env.DB.prepare(
    "SELECT id, seq, amount, balance_after, source_event FROM balance_transactions WHERE account_id = ? AND live = ? ORDER BY seq",
  )
    .bind(accountId, live ? 1 : 0)
    .all<{ id: string; seq: number; amount: number; balance_after: number; source_event: string | null }>();
  return results;
}
