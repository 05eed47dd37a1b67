// Credits an account's usage balance (an operator's top-up), with its
// billing.balance_transaction.created event. The transaction is printed once.
//
//   npm run balance:top-up -- --account acct_… --mode test|live --amount 50.00 [--description "…"] [--remote]
//
// Without --remote it acts on the local D1 that `npm start` serves (or the state directory
// given with --persist-to); with --remote on the production D1 (needs `wrangler login`).
// The credit goes to the account's shard, read from the directory as the API reads it
// (docs/scaling.md): an account the directory does not know, or one being moved, is refused
// (exit code 2) with nothing written.
// The event is queued by the cron sweep once it is five minutes old (a script cannot reach
// the receivers or the queue; the sweep leaves younger events to the write that made them).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { d1Execute, lit, newId } from "./lib.mjs";

const TEMPLATE = readFileSync(new URL("./balance-top-up.sql", import.meta.url), "utf8").replace(
  /^--.*\n/gm,
  "",
);

/** "50.00" → 5000 cents; null unless a positive amount with at most 2 decimals, at most 1,000,000,000.00. */
export function parseAmount(s) {
  const m = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/.exec(s ?? "");
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return cents > 0 && cents <= 100_000_000_000 ? cents : null;
}

/**
 * The statements of scripts/balance-top-up.sql (the ones the tests run) with their ?1…?7
 * inlined: `wrangler d1 execute` takes no bound parameters.
 */
export function topUpSql({ id, accountId, live, cents, description, now, eventId }) {
  const params = [
    lit(id),
    lit(accountId),
    live ? "1" : "0",
    String(cents),
    lit(description),
    lit(now),
    lit(eventId),
  ];
  return TEMPLATE.replace(/\?(\d)/g, (_, n) => params[n - 1]);
}

/**
 * The shard holding `accountId`, read from the directory (directory_accounts, as the API's
 * auth reads it). Exits with code 2, nothing written, for an account the directory does not
 * know or one being moved (its writes are paused: a credit on the shard it leaves would be lost).
 */
function shardOf(accountId, target) {
  const [place] =
    d1Execute(`SELECT shard, moving_since FROM directory_accounts WHERE account_id = ${lit(accountId)};`, {
      ...target,
      database: "DIRECTORY",
    }).at(-1)?.results ?? [];
  if (!place) fail(`No such account: ${accountId}. Nothing was credited.`);
  if (place.moving_since)
    fail(
      `${accountId} is being moved to another shard (since ${place.moving_since}): run the top-up again once the move is done. Nothing was credited.`,
    );
  if (!/^[A-Z][A-Z0-9_]*$/.test(place.shard))
    fail(
      `The directory places ${accountId} on ${JSON.stringify(place.shard)}, not a D1 binding. Nothing was credited.`,
    );
  return place.shard;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

function main() {
  const { values } = parseArgs({
    options: {
      account: { type: "string" },
      mode: { type: "string" },
      amount: { type: "string" },
      description: { type: "string", default: "Top-up" },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
    },
  });
  if (!/^acct_[0-9A-Z]{26}$/.test(values.account ?? "")) fail("--account must be an account id (acct_…).");
  if (values.mode !== "test" && values.mode !== "live") fail("--mode must be test or live.");
  const cents = parseAmount(values.amount);
  if (cents === null)
    fail('--amount must be a positive EUR amount with at most 2 decimals, such as "50.00".');
  if (values.description.length < 1 || values.description.length > 256)
    fail("--description must be 1 to 256 characters.");
  if (values.remote && values["persist-to"]) fail("--persist-to names a local state: drop it with --remote.");

  const target = { remote: values.remote, persistTo: values["persist-to"] };
  const shard = shardOf(values.account, target);
  const sql = topUpSql({
    id: newId("btx"),
    accountId: values.account,
    live: values.mode === "live",
    cents,
    description: values.description,
    now: new Date().toISOString(),
    eventId: newId("evt"),
  });
  const out = d1Execute(sql, { ...target, database: shard });
  const [row] = out[0]?.results ?? [];
  // The directory names the account but its shard lacks it: a misconfiguration, never guessed around.
  if (!row)
    fail(`No account ${values.account} on ${shard}, where the directory places it. Nothing was credited.`);
  const eur = (c) =>
    `${c < 0 ? "-" : ""}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, "0")}`;
  console.log(
    `${row.id} (${values.mode}) of ${row.account_id}: ${row.type} +${eur(row.amount)} EUR, balance after ${eur(row.balance_after)} EUR, ${row.created_at}`,
  );
}

// Run directly (`npm run balance:top-up`), not when imported by seed-local.mjs.
if (import.meta.url === `file://${process.argv[1]}`) main();
