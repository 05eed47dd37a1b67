import { env } from "cloudflare:workers";

type AccountTable = "customers" | "payment_instructions" | "event_destinations" | "events";

/** How many rows of `table` belong to the account: "a rejected request writes nothing". */
export async function countRows(table: AccountTable, accountId: string): Promise<number> {
  const n = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
    .bind(accountId)
    .first<number>("n");
  return n ?? 0;
}
