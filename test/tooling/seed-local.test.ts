/**
 * scripts/seed-local.mjs (`npm run db:seed:local`, and `npm start`'s setup after the
 * migrations): run twice on a migrated local state, the second run changes no row of any
 * table; the dev keys it seeds are stored as their SHA-256 and are in no migration.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { d1 as d1On, filesUnder, root, runOk as run, sha256Hex, WRANGLER } from "./local-state";

/** The dev keys (README's Development keys), with the account, its regime and the environment of each. */
const DEV_KEYS = [
  ["sk_test_es_localdev", "acct_0000000000000000000000ES01", "es", 0],
  ["sk_live_es_localdev", "acct_0000000000000000000000ES01", "es", 1],
  ["sk_test_global_localdev", "acct_0000000000000000000000GL01", "global", 0],
  ["sk_live_global_localdev", "acct_0000000000000000000000GL01", "global", 1],
] as const;

let state: string;
const d1 = (sql: string) => d1On(state, sql);

/**
 * The whole database: its schema and every table's rows (D1 refuses its own _cf_ tables),
 * each table's rows in one order whatever order SQLite returns them in.
 */
function dump(): Record<string, string[]> {
  const [tables = []] = d1(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name",
  );
  const names = tables.map((t) => String(t.name));
  const results = d1(
    [
      "SELECT type, name, tbl_name, sql FROM sqlite_master",
      ...names.map((name) => `SELECT * FROM "${name}"`),
    ].join(";\n"),
  );
  return Object.fromEntries(
    ["sqlite_master", ...names].map((name, i) => [
      name,
      (results[i] ?? []).map((row) => JSON.stringify(row)).sort(),
    ]),
  );
}

const seed = () => run(["scripts/seed-local.mjs", "--persist-to", state]);

let migrated: Record<string, string[]>;
let first: Record<string, string[]>;
let second: Record<string, string[]>;

beforeAll(() => {
  state = mkdtempSync(`${tmpdir()}/seed-local-`);
  // `npm start`'s first step (CI=true answers wrangler's prompt), then the seed, twice.
  run([WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { CI: "true" });
  migrated = dump();
  expect(seed()).toContain("Seeded local accounts");
  first = dump();
  expect(seed()).toContain("Seeded local accounts");
  second = dump();
}, 180_000);

afterAll(() => rmSync(state, { recursive: true, force: true }));

describe("seed-local", () => {
  it("the local seed can run twice and changes nothing the second time", () => {
    // The first run wrote rows (so the dump sees its tables), the second run none.
    expect(first).not.toEqual(migrated);
    expect(first.api_keys).toHaveLength(DEV_KEYS.length);
    expect(first.balance_transactions).toHaveLength(4);
    expect(Object.keys(second)).toEqual(Object.keys(first));
    for (const [table, rows] of Object.entries(first)) expect(second[table], table).toEqual(rows);
  });

  it("the dev keys are seeded, each on its account, regime and environment, but never live in migrations/", () => {
    const [keys = []] = d1(
      "SELECT k.account_id, a.tax_regime, k.live, k.key_hash, k.key_hint, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id",
    );
    expect(keys).toEqual(
      expect.arrayContaining(
        DEV_KEYS.map(([key, account_id, tax_regime, live]) => ({
          account_id,
          tax_regime,
          live,
          key_hash: sha256Hex(key),
          key_hint: key.slice(-4),
          revoked_at: null,
        })),
      ),
    );
    // Seeded as their SHA-256 only: no byte of the state holds a dev key.
    expect(filesUnder(state).filter((path) => readFileSync(path, "latin1").includes("_localdev"))).toEqual(
      [],
    );

    // No migration (nor drizzle's snapshots in migrations/meta) holds the marker, a dev key or
    // its hash.
    const migrations = filesUnder(`${root}migrations`);
    expect(migrations.filter((path) => path.endsWith(".sql")).length).toBeGreaterThan(0);
    const needles = ["localdev", ...DEV_KEYS.map(([key]) => sha256Hex(key))];
    const holding = migrations.filter((path) => {
      const text = readFileSync(path, "utf8");
      return needles.some((needle) => text.includes(needle));
    });
    expect(holding).toEqual([]);
  }, 60_000);
});
