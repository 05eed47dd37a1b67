/**
 * `npm run balance:top-up`: its argument rules (each refused with exit code 2 before any
 * database is touched) and one real credit of a local state made by `npm start`'s setup. The
 * SQL itself is tested in workerd (test/integration/balance/balance.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by its use here
import { parseAmount } from "../../scripts/balance-top-up.mjs";

import { d1, ES_ACCOUNT, fingerprint, NODE, root, runNode, seededState, WRANGLER } from "./local-state";

// The seed gives ES_ACCOUNT 100.00 EUR in each environment.
const topUp = (...args: string[]) => runNode(["scripts/balance-top-up.mjs", ...args]);

describe("balance:top-up --amount: a positive EUR amount with at most 2 decimals", () => {
  it.each([
    ["50.00", 5000],
    ["50", 5000],
    ["0.01", 1],
    ["1.5", 150],
    ["12.34", 1234],
    ["1000000000.00", 100_000_000_000],
  ])("%s is %i cents", (amount, cents) => {
    expect(parseAmount(amount)).toBe(cents);
  });

  it.each(["0", "0.00", "-1", "1.234", "01", "1e3", " 5", "5,00", "1000000000.01", ""])(
    "%j is refused",
    (amount) => {
      expect(parseAmount(amount)).toBeNull();
    },
  );

  it("a missing amount is refused", () => {
    expect(parseAmount(undefined)).toBeNull();
  });
});

let state: string;

beforeAll(() => {
  state = seededState("top-up");
}, 120_000);

afterAll(() => rmSync(state, { recursive: true, force: true }));

const ledger = () =>
  d1(state, "SELECT id, account_id, live, amount, balance_after FROM balance_transactions ORDER BY id")[0];

describe("balance:top-up refuses bad arguments with exit code 2, before touching a database", () => {
  const valid = ["--account", ES_ACCOUNT, "--mode", "test", "--amount", "1.00", "--persist-to", "STATE"];
  const withArg = (flag: string, value: string) => {
    const args = [...valid];
    args[args.indexOf(flag) + 1] = value;
    return args;
  };

  it.each([
    ["an account that is not an account id", withArg("--account", "cus_01ABC"), "--account"],
    ["a mode other than test or live", withArg("--mode", "prod"), "--mode"],
    ["an amount with 3 decimals", withArg("--amount", "1.005"), "--amount"],
    ["an empty description", [...valid, "--description", ""], "--description"],
    ["a description over 256 characters", [...valid, "--description", "x".repeat(257)], "--description"],
    ["--persist-to with --remote", [...valid, "--remote"], "--persist-to"],
  ])("%s", (_, args, flag) => {
    const before = fingerprint(state);
    const run = topUp(...args.map((arg) => (arg === "STATE" ? state : arg)));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(flag);
    expect(run.stdout).toBe("");
    // Not a byte of the state changed: wrangler never opened the database.
    expect(fingerprint(state)).toEqual(before);
  });
});

describe("balance:top-up credits a local state", () => {
  it("credits the environment named and prints the transaction with its balance after", () => {
    const run = topUp(
      ...["--account", ES_ACCOUNT, "--mode", "live", "--amount", "12.34"],
      "--persist-to",
      state,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^btx_[0-9A-Z]{26} \\(live\\) of ${ES_ACCOUNT}: top_up \\+12\\.34 EUR, balance after 112\\.34 EUR, `,
      ),
    );
    // The test environment's balance is its own.
    const again = topUp(
      ...["--account", ES_ACCOUNT, "--mode", "test", "--amount", "0.50"],
      "--persist-to",
      state,
    );
    expect(again.stdout).toContain("balance after 100.50 EUR");
  }, 60_000);

  it("an unknown account credits nothing: exit code 2", () => {
    const unknown = "acct_0000000000000000000000ZZ99";
    const before = ledger();
    expect(before?.length).toBeGreaterThan(0);
    const run = topUp("--account", unknown, "--mode", "test", "--amount", "1.00", "--persist-to", state);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`No such account: ${unknown}`);
    expect(ledger()).toEqual(before);
  }, 60_000);
});

/**
 * A local state with a second shard: the project's wrangler.toml plus `DB_2` (a database of
 * its own, migrated), as a deployment that added a shard has it (docs/scaling.md). The
 * scripts run from `dir`, so wrangler reads this configuration; DB and DIRECTORY stay the
 * seeded database.
 */
describe("balance:top-up credits the account's shard, as the directory places it", () => {
  let dir: string;
  let sharded: string;
  const inDir = (args: string[]) => {
    const run = spawnSync(NODE, args, {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const on = (database: string, sql: string) => {
    const run = inDir([
      WRANGLER,
      ...["d1", "execute", database, "--local", "--persist-to", sharded, "--json", "--command", sql],
    ]);
    expect(run.status, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { results: Record<string, unknown>[] }[]).map((r) => r.results);
  };

  beforeAll(() => {
    sharded = seededState("top-up-shards");
    dir = mkdtempSync(`${tmpdir()}/top-up-config-`);
    const base = readFileSync(`${root}wrangler.toml`, "utf8")
      .replace(/^main = .*$/m, "")
      .replace(/^\[build\][^[]*/m, "")
      .replace(/^\[assets\][^[]*/m, "")
      .replaceAll('migrations_dir = "migrations"', `migrations_dir = "${root}migrations"`);
    writeFileSync(
      `${dir}/wrangler.toml`,
      new TextEncoder().encode(
        `${base}\n[[d1_databases]]\nbinding = "DB_2"\ndatabase_name = "invoicing-2"\ndatabase_id = "00000000-0000-0000-0000-000000000002"\nmigrations_dir = "${root}migrations"\n`,
      ),
    );
    const migrate = inDir([
      WRANGLER,
      "d1",
      "migrations",
      "apply",
      "DB_2",
      "--local",
      "--persist-to",
      sharded,
    ]);
    expect(migrate.status, migrate.stderr).toBe(0);
  }, 180_000);

  afterAll(() => {
    rmSync(sharded, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it("an account on DB_2 gets its credit on DB_2; the first shard is untouched", () => {
    const created = inDir([
      `${root}scripts/key-create.mjs`,
      "--new-account",
      "Segundo SL",
      "--shard",
      "DB_2",
      "--persist-to",
      sharded,
    ]);
    expect(created.status, created.stderr).toBe(0);
    const account = /Account: (acct_[0-9A-Z]{26})/.exec(created.stdout)?.[1] as string;
    const firstShard = on(
      "DB",
      "SELECT * FROM balance_transactions ORDER BY id; SELECT id FROM events ORDER BY id",
    );

    const run = inDir([
      `${root}scripts/balance-top-up.mjs`,
      ...["--account", account, "--mode", "test", "--amount", "25.00", "--persist-to", sharded],
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`of ${account}: top_up +25.00 EUR, balance after 25.00 EUR`);
    expect(
      on("DB_2", `SELECT amount, balance_after FROM balance_transactions WHERE account_id = '${account}'`)[0],
    ).toEqual([{ amount: 2500, balance_after: 2500 }]);
    expect(on("DB_2", `SELECT type FROM events WHERE account_id = '${account}'`)[0]).toEqual([
      { type: "billing.balance_transaction.created" },
    ]);
    expect(
      on("DB", "SELECT * FROM balance_transactions ORDER BY id; SELECT id FROM events ORDER BY id"),
    ).toEqual(firstShard);
  }, 60_000);

  it("an account being moved is refused with exit code 2, nothing credited", () => {
    on(
      "DIRECTORY",
      `UPDATE directory_accounts SET moving_since = '2026-01-01T00:00:00.000Z' WHERE account_id = '${ES_ACCOUNT}'`,
    );
    const before = on("DB", "SELECT id FROM balance_transactions ORDER BY id");
    const run = inDir([
      `${root}scripts/balance-top-up.mjs`,
      ...["--account", ES_ACCOUNT, "--mode", "test", "--amount", "1.00", "--persist-to", sharded],
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("being moved");
    expect(on("DB", "SELECT id FROM balance_transactions ORDER BY id")).toEqual(before);
  }, 60_000);
});
