// Revokes an API key: it stops working within 30 seconds (the per-isolate key cache).
//
//   npm run key:revoke -- --key sk_live_… [--remote]
//   npm run key:revoke -- --id key_… [--remote]
//   npm run key:revoke -- --account acct_… [--remote]    # lists its keys, revokes nothing
//
// Without --remote it acts on the local D1 that `npm start` serves (or the state directory
// given with --persist-to); with --remote on the production D1 (needs `wrangler login`).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { d1Execute, lit, sha256Hex } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    key: { type: "string" },
    id: { type: "string" },
    account: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

function fail(message) {
  console.error(message);
  process.exit(2);
}
if (["key", "id", "account"].filter((name) => values[name] !== undefined).length !== 1)
  fail("Pass exactly one of --key <sk_…>, --id <key_…> or --account <acct_…>.");
if (values.remote && values["persist-to"]) fail("--persist-to names a local state: drop it with --remote.");
// Keys live in the directory (src/db/shards.ts), whichever shard holds the account.
const target = { remote: values.remote, persistTo: values["persist-to"], database: "DIRECTORY" };
const mode = (live) => (live ? "live" : "test");

if (values.account !== undefined) {
  if (!/^acct_[0-9A-Z]{26}$/.test(values.account)) fail("--account must be an account id (acct_…).");
  const [{ results }] = d1Execute(
    `SELECT id, live, key_hint, created_at, revoked_at FROM api_keys WHERE account_id = ${lit(values.account)} ORDER BY id;`,
    target,
  );
  if (results.length === 0) fail(`No keys for account ${values.account}.`);
  for (const k of results) {
    const state = k.revoked_at ? `revoked ${k.revoked_at}` : "active";
    console.log(`${k.id}  ${mode(k.live)}  …${k.key_hint}  created ${k.created_at}  ${state}`);
  }
  process.exit(0);
}
if (values.key !== undefined && !/^sk_(test|live)_/.test(values.key))
  fail("--key must be a secret key (sk_test_… or sk_live_…).");
if (values.id !== undefined && !/^key_[0-9A-Z]{26}$/.test(values.id)) fail("--id must be a key id (key_…).");

// The statement the tests run (test/integration/api/keys.test.ts), with its ?1 ?2 ?3 inlined:
// `wrangler d1 execute` takes no bound parameters.
const now = new Date().toISOString();
const params = [values.key === undefined ? null : sha256Hex(values.key), values.id ?? null, now];
const sql = readFileSync(new URL("./key-revoke.sql", import.meta.url), "utf8")
  .replace(/^--.*\n/gm, "")
  .replace(/\?(\d)/g, (_, n) => (params[n - 1] === null ? "NULL" : lit(params[n - 1])));
const [row] = d1Execute(sql, target).at(-1)?.results ?? [];
if (!row) fail("No such key: nothing was revoked.");

const key = `${row.id} (${mode(row.live)}, …${row.key_hint}) of ${row.account_id}`;
if (row.revoked_at !== now) console.log(`${key} was already revoked at ${row.revoked_at}.`);
else console.log(`${key}: revoked. It stops working within 30 seconds (the per-isolate key cache).`);
