// Moves an account to another shard (docs/scaling.md) through `wrangler d1 execute`, with the
// steps of `moveAccount` (move.ts):
//
//   npm run account:move -- --account acct_… --to DB_2 [--remote | --persist-to DIR]
//
// One wrangler call per statement: minutes for an account of thousands of rows.
import { parseArgs } from "node:util";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { d1Execute } from "../lib.mjs";
import { moveAccount, type Sql } from "./move";

const { values } = parseArgs({
  options: {
    account: { type: "string" },
    to: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
const account = values.account ?? fail("--account acct_… is required.");
const to = values.to ?? fail("--to <shard binding> is required.");
if (!/^acct_[0-9A-Z]{26}$/.test(account)) fail("--account must be an account id (acct_…).");
if (!/^[A-Z][A-Z0-9_]*$/.test(to)) fail("--to must be a D1 binding name listed in SHARDS.");

const target = { remote: values.remote, persistTo: values["persist-to"] };
const sql: Sql = async (database, statement) =>
  (d1Execute(statement, { ...target, database }) as { results: Record<string, unknown>[] }[]).at(-1)
    ?.results ?? [];

// Key caches hold a directory answer for 30 s, and that answer may come from a replica that
// lags the primary: 60 s covers the cache and half a minute of replica lag.
const PAUSE_MS = 60_000;
const result = await moveAccount(sql, account, to, () => {
  console.log(`${account}: writes paused; waiting 60 s for every key cache to see it…`);
  return new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
});
if (!result.moved) fail(`Not moved: ${result.reason}`);
else {
  console.log(`${account}: on ${to}, writes resumed (${JSON.stringify(result.copied)}).`);
  console.log(`${account}: rows deleted from ${result.from} (its ledger and account row stay: append-only).`);
}
