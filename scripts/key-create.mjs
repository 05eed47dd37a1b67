// Mints an API key and prints it once; only its SHA-256 is stored.
//
//   npm run key:create -- --account acct_… [--mode live|test] [--remote | --persist-to DIR]
//   npm run key:create -- --new-account "Acme SL" --tax-regime es [--shard DB] [--mode live] [--remote]
//
// Without --remote it writes to the local D1 (what `npm start` serves, or the state directory
// given with --persist-to); with --remote it
// writes to the production D1 named in wrangler.toml (needs `wrangler login` there). A new
// account goes on the shard --shard names (a D1 binding listed in SHARDS, default DB) and into
// the directory; the key goes into the directory (docs/scaling.md).
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { d1Execute, lit, newId, sha256Hex } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    account: { type: "string" },
    "new-account": { type: "string" },
    "tax-regime": { type: "string", default: "es" },
    mode: { type: "string", default: "test" },
    shard: { type: "string", default: "DB" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

function fail(message) {
  console.error(message);
  process.exit(2);
}
if (!["test", "live"].includes(values.mode)) fail("--mode must be test or live.");
if (!values.account === !values["new-account"])
  fail("Pass exactly one of --account <id> or --new-account <name>.");
if (!["es", "global"].includes(values["tax-regime"])) fail("--tax-regime must be es or global.");
if (!/^[A-Z][A-Z0-9_]*$/.test(values.shard)) fail("--shard must be a D1 binding name listed in SHARDS.");
if (values.remote && values["persist-to"]) fail("--persist-to names a local state: drop it with --remote.");

const now = new Date().toISOString();
const target = { remote: values.remote, persistTo: values["persist-to"] };
let accountId = values.account;
if (values["new-account"]) {
  accountId = newId("acct");
  const regime = lit(values["tax-regime"]);
  // The account on its shard first: the directory never names an account its shard lacks.
  d1Execute(
    `INSERT INTO accounts (id, name, tax_regime, created_at, updated_at) VALUES (${lit(accountId)}, ${lit(values["new-account"])}, ${regime}, ${lit(now)}, ${lit(now)});`,
    { ...target, database: values.shard },
  );
  d1Execute(
    `INSERT INTO directory_accounts (account_id, shard, tax_regime, created_at) VALUES (${lit(accountId)}, ${lit(values.shard)}, ${regime}, ${lit(now)});`,
    { ...target, database: "DIRECTORY" },
  );
} else if (!/^acct_[0-9A-Z]{26}$/.test(accountId)) {
  fail("--account must be an account id (acct_…).");
}

// 32 random bytes, base64url: 256 bits, so the SHA-256 lookup needs no salt or slow hash.
const key = `sk_${values.mode}_${randomBytes(32).toString("base64url")}`;
const inserted = d1Execute(
  `INSERT INTO api_keys (id, account_id, live, key_hash, key_hint, created_at) SELECT ${lit(newId("key"))}, account_id, ${values.mode === "live" ? 1 : 0}, ${lit(sha256Hex(key))}, ${lit(key.slice(-4))}, ${lit(now)} FROM directory_accounts WHERE account_id = ${lit(accountId)} RETURNING id;`,
  { ...target, database: "DIRECTORY" },
);
// Local `--json` output carries no change counts, so the key insert returns its row instead.
const written = inserted.at(-1)?.results?.length ?? 0;
if (written === 0) fail(`No account ${accountId}: no key was created.`);

console.log(`Account: ${accountId}`);
console.log(`API key (${values.mode}), shown once, store it now:\n\n  ${key}\n`);
