/**
 * `npm run balance:top-up`: its argument rules (each refused with exit code 2 before any
 * database is touched) and one real credit of a local state made by `npm start`'s setup. The
 * SQL itself is tested in workerd (test/integration/balance/balance.test.ts).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by its use here
import { parseAmount } from "../../scripts/balance-top-up.mjs";

import { d1, ES_ACCOUNT, fingerprint, runNode, seededState } from "./local-state";

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
