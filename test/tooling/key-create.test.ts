/**
 * `npm run key:create` (scripts/key-create.mjs): the key is shown once and only its SHA-256 is
 * stored, and bad arguments are refused (exit code 2) before the database is opened. It runs
 * on a temporary state made by `npm start`'s setup (migrations and dev seed), named with
 * --persist-to, never on the developer's own.
 */
import { readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  d1 as d1On,
  ES_ACCOUNT,
  filesUnder,
  fingerprint as fingerprintOf,
  runNode,
  seededState,
  sha256Hex,
} from "./local-state";

let state: string;

const keyCreate = (...args: string[]) => runNode(["scripts/key-create.mjs", "--persist-to", state, ...args]);

const d1 = (sql: string) => d1On(state, sql);
const stateFiles = () => filesUnder(state);

const fingerprint = () => fingerprintOf(state);

/** The state files (database, its -wal and -shm, miniflare's metadata) whose bytes hold `text`. */
function filesHolding(text: string): string[] {
  return stateFiles().filter((path) => readFileSync(path, "latin1").includes(text));
}

beforeAll(() => {
  state = seededState("key-create");
}, 120_000);

afterAll(() => rmSync(state, { recursive: true, force: true }));

describe("key:create", () => {
  it.each([
    ["a Live key for an existing account", ["--account", ES_ACCOUNT, "--mode", "live"], "live"],
    [
      "a Test key (the default) for a new account",
      ["--new-account", "Acme SL", "--tax-regime", "global"],
      "test",
    ],
  ])(
    "the key is shown once; only its SHA-256 is stored: %s",
    (_, args, mode) => {
      const run = keyCreate(...args);
      expect(run.status, run.stderr).toBe(0);
      // 32 random bytes in base64url: 43 characters after sk_<mode>_.
      const printed = new RegExp(
        `^Account: (acct_[0-9A-Z]{26})\\nAPI key \\(${mode}\\), shown once, store it now:\\n\\n  (sk_${mode}_[A-Za-z0-9_-]{43})\\n\\n$`,
      ).exec(run.stdout);
      expect(printed, run.stdout).not.toBeNull();
      const [, account, key] = printed as unknown as [string, string, string];
      if (args[0] === "--account") expect(account).toBe(ES_ACCOUNT);
      expect(run.stdout.split(key)).toHaveLength(2);
      expect(run.stderr).not.toContain(key);

      const [rows, newAccount] = d1(
        `SELECT account_id, live, key_hash, key_hint, revoked_at FROM api_keys WHERE key_hash = '${sha256Hex(key)}';
       SELECT a.name, a.tax_regime, d.shard FROM accounts a JOIN directory_accounts d ON d.account_id = a.id WHERE a.id = '${account}';`,
      );
      expect(rows).toEqual([
        {
          account_id: account,
          live: mode === "live" ? 1 : 0,
          key_hash: sha256Hex(key),
          key_hint: key.slice(-4),
          revoked_at: null,
        },
      ]);
      if (args[0] === "--new-account")
        expect(newAccount).toEqual([{ name: "Acme SL", tax_regime: "global", shard: "DB" }]);

      // Nowhere the key itself: not in any column of any table, nor in any page of the database,
      // its write-ahead log or miniflare's files. The hash is found there, so the search reaches
      // the bytes the insert wrote.
      expect(filesHolding(sha256Hex(key)).length).toBeGreaterThan(0);
      expect(filesHolding(key)).toEqual([]);
      expect(filesHolding(key.slice(`sk_${mode}_`.length))).toEqual([]);
    },
    60_000,
  );

  it("an unknown account gets no key, and none is shown: exit code 2", () => {
    const count = () => d1("SELECT count(*) AS n FROM api_keys")[0];
    const before = count();
    const unknown = "acct_0000000000000000000000ZZ99";
    const run = keyCreate("--account", unknown, "--mode", "live");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`No account ${unknown}: no key was created.`);
    expect(run.stdout).toBe("");
    expect(count()).toEqual(before);
  }, 60_000);
});

describe("key:create refuses bad arguments with exit code 2, before touching the database", () => {
  it.each([
    ["a mode other than test or live", ["--account", ES_ACCOUNT, "--mode", "prod"], "--mode"],
    ["neither --account nor --new-account", ["--mode", "test"], "--new-account"],
    [
      "both --account and --new-account",
      ["--account", ES_ACCOUNT, "--new-account", "Acme SL"],
      "--new-account",
    ],
    ["an empty --new-account name", ["--new-account", ""], "--new-account"],
    [
      "a tax regime other than es or global",
      ["--new-account", "Acme SL", "--tax-regime", "fr"],
      "--tax-regime",
    ],
    ["a shard that is not a binding name", ["--new-account", "Acme SL", "--shard", "db_2"], "--shard"],
    ["an account that is not an account id", ["--account", "cus_01ABC"], "--account"],
  ])("%s", (_, args, flag) => {
    const before = fingerprint();
    const run = keyCreate(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(flag);
    expect(run.stdout).toBe("");
    // Not a byte of the state changed: wrangler never opened the database.
    expect(fingerprint()).toEqual(before);
  });

  it("--persist-to together with --remote is refused", () => {
    const before = fingerprint();
    const run = keyCreate("--account", ES_ACCOUNT, "--remote");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--persist-to");
    expect(run.stdout).toBe("");
    expect(fingerprint()).toEqual(before);
  });
});
