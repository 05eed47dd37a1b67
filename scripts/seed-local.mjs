// Seeds the local development accounts and their fixed keys (decisions.md). Idempotent:
// fixed ids and INSERT OR IGNORE, so running it twice changes nothing. Local only: these
// keys never go into a migration.
import { lit, sha256Hex, wrangler } from "./lib.mjs";

const CREATED = "2026-01-01T00:00:00.000Z";
const accounts = [
  { id: "acct_0000000000000000000000ES01", name: "Local Spanish account", regime: "es", slug: "es" },
  { id: "acct_0000000000000000000000GL01", name: "Local global account", regime: "global", slug: "global" },
];

const statements = [];
for (const a of accounts) {
  statements.push(
    `INSERT OR IGNORE INTO accounts (id, name, tax_regime, created_at, updated_at) VALUES (${lit(a.id)}, ${lit(a.name)}, ${lit(a.regime)}, ${lit(CREATED)}, ${lit(CREATED)});`,
  );
  for (const mode of ["test", "live"]) {
    const key = `sk_${mode}_${a.slug}_localdev`;
    const keyId = `key_0000000000000000000000${a.slug === "es" ? "ES" : "GL"}${mode === "test" ? "T" : "L"}1`;
    statements.push(
      `INSERT OR IGNORE INTO api_keys (id, account_id, live, key_hash, key_hint, created_at) VALUES (${lit(keyId)}, ${lit(a.id)}, ${mode === "live" ? 1 : 0}, ${lit(sha256Hex(key))}, ${lit(key.slice(-4))}, ${lit(CREATED)});`,
    );
  }
}

/** Seeds the local D1 (`extraArgs`, e.g. `--persist-to DIR`, go to wrangler). */
export function seedLocal(extraArgs = []) {
  wrangler(["d1", "execute", "DB", "--local", ...extraArgs, "--command", statements.join(" ")], {
    capture: true,
  });
  console.log(
    "Seeded local accounts. Dev keys: sk_test_es_localdev, sk_live_es_localdev, sk_test_global_localdev, sk_live_global_localdev",
  );
}

// Run directly (`npm run db:seed:local`), not when imported by start.mjs.
if (import.meta.url === `file://${process.argv[1]}`) seedLocal(process.argv.slice(2));
