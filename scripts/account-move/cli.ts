// Moves an account to another shard (docs/scaling.md), through `wrangler d1 execute`:
//
//   npm run account:move -- --account acct_… --to DB_2 [--remote | --persist-to DIR]
//
// 1. pauses the account's writes (the API answers them 503 account_moving) and waits 35 s for
//    every isolate's key cache; 2. refuses to go on while background work is in flight (the
//    pause is lifted again: run it later); 3. copies the rows, parents first (a copy cut short
//    can run again); 4. checks the counts table by table; 5. switches the directory, which
//    resumes writes; 6. deletes the rows from the old shard, except its append-only ledger.
// One wrangler call per statement: minutes for an account of thousands of rows.
import { parseArgs } from "node:util";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { d1Execute } from "../lib.mjs";
import {
  copyAccount,
  countRows,
  deleteAccount,
  inFlight,
  type Sql,
  setMoving,
  shardOf,
  switchShard,
} from "./move";

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

const from = (await shardOf(sql, account)) ?? fail(`No account ${account} in the directory.`);
if (from === to) fail(`${account} is already on ${to}.`);

await setMoving(sql, account, true);
console.log(`${account}: writes paused; waiting 35 s for every key cache to see it…`);
await new Promise((resolve) => setTimeout(resolve, 35_000));
const busy = await inFlight(sql, from, account);
if (busy.length > 0) {
  await setMoving(sql, account, false);
  fail(`Not moved, writes resumed: still in flight on ${from}: ${busy.join(", ")}. Try again later.`);
}
const copied = await copyAccount(sql, from, to, account);
const there = await countRows(sql, to, account);
const mismatched = Object.keys(copied).filter((table) => there[table] !== copied[table]);
if (mismatched.length > 0) {
  await setMoving(sql, account, false);
  fail(`Not moved, writes resumed on ${from}: counts differ on ${to} for ${mismatched.join(", ")}.`);
}
await switchShard(sql, account, to);
console.log(`${account}: on ${to}, writes resumed (${JSON.stringify(copied)}).`);
await deleteAccount(sql, from, account);
console.log(`${account}: rows deleted from ${from} (its ledger and account row stay: append-only).`);
