// Seeds the local development accounts and their fixed keys (decisions.md). Idempotent:
// fixed ids and INSERT OR IGNORE, so running it twice changes nothing. Local only: these
// keys never go into a migration.
import { topUpSql } from "./balance-top-up.mjs";
import { lit, sha256Hex, wrangler } from "./lib.mjs";

const CREATED = "2026-01-01T00:00:00.000Z";
const accounts = [
  {
    id: "acct_0000000000000000000000ES01",
    name: "Local Spanish account",
    regime: "es",
    slug: "es",
    // A complete issuer profile, so invoices can be issued right after `npm start`.
    profile: {
      legalName: "Local Dev Ibérica SL",
      taxId: ["ES", "es_nif", "B12345674"],
      address: ["Calle de Alcalá 1", "Madrid", "28014", "Madrid", "ES"],
    },
  },
  {
    id: "acct_0000000000000000000000GL01",
    name: "Local global account",
    regime: "global",
    slug: "global",
    profile: {
      legalName: "Local Dev Global Ltd",
      taxId: ["GB", "local", "GB123456789"],
      address: ["1 King Street", "London", "EC2V 8AU", null, "GB"],
    },
  },
];

// The accounts' data goes to their shard (DB), their place and keys to the directory
// (src/db/shards.ts); locally both bindings are the same database, as in wrangler.toml.
const statements = [];
const directory = [];
for (const a of accounts) {
  statements.push(
    `INSERT OR IGNORE INTO accounts (id, name, tax_regime, created_at, updated_at) VALUES (${lit(a.id)}, ${lit(a.name)}, ${lit(a.regime)}, ${lit(CREATED)}, ${lit(CREATED)});`,
  );
  directory.push(
    `INSERT OR IGNORE INTO directory_accounts (account_id, shard, tax_regime, created_at) VALUES (${lit(a.id)}, 'DB', ${lit(a.regime)}, ${lit(CREATED)});`,
  );
  for (const mode of ["test", "live"]) {
    const key = `sk_${mode}_${a.slug}_localdev`;
    const keyId = `key_0000000000000000000000${a.slug === "es" ? "ES" : "GL"}${mode === "test" ? "T" : "L"}1`;
    const live = mode === "live" ? 1 : 0;
    const { legalName, taxId, address } = a.profile;
    const txi = `txi_0000000000000000000000${a.slug === "es" ? "ES" : "GL"}${mode === "test" ? "T" : "V"}1`;
    // As hasRegistry (src/verification/route.ts) decides: the sandbox checks the es account's
    // es_nif in Test, and this is its answer for B12345674 (seeded settled: `wrangler dev` runs
    // no cron, so a seeded `pending` would never be queued). Live has no AEAT credentials
    // locally, and `local` has no registry: null.
    const verified = a.slug === "es" && mode === "test";
    const verification = verified ? [lit("completed"), "1", lit(CREATED)] : ["NULL", "NULL", "NULL"];
    const profile = [
      lit(legalName),
      lit(txi),
      ...taxId.map(lit),
      ...verification,
      lit(CREATED),
      ...address.map((v) => (v === null ? "NULL" : lit(v))),
    ].join(", ");
    // A profile is written only where none was ever set, so a re-run changes nothing. Its
    // Tax ID gets its own row in tax_ids (the source of truth `GET /v1/tax-ids/{id}` reads).
    statements.push(
      `INSERT OR IGNORE INTO account_environments (account_id, live, updated_at) VALUES (${lit(a.id)}, ${live}, ${lit(CREATED)});`,
      `UPDATE account_environments SET (legal_name, tax_id_id, tax_id_country, tax_id_type, tax_id_value, tax_id_verification_status, tax_id_verification_valid, tax_id_verification_completed_at, tax_id_created_at, address_line_1, address_city, address_postal_code, address_state, address_country) = (${profile}) WHERE account_id = ${lit(a.id)} AND live = ${live} AND legal_name IS NULL AND tax_id_id IS NULL AND address_line_1 IS NULL;`,
      `INSERT OR IGNORE INTO tax_ids (id, account_id, live, owner_type, owner_id, country, type, value, created_at, verification_status, verification_valid, verification_completed_at) SELECT tax_id_id, account_id, live, 'account', account_id, tax_id_country, tax_id_type, tax_id_value, tax_id_created_at, tax_id_verification_status, tax_id_verification_valid, tax_id_verification_completed_at FROM account_environments WHERE account_id = ${lit(a.id)} AND live = ${live} AND tax_id_id = ${lit(txi)};`,
    );
    directory.push(
      `INSERT OR IGNORE INTO api_keys (id, account_id, live, key_hash, key_hint, created_at) VALUES (${lit(keyId)}, ${lit(a.id)}, ${mode === "live" ? 1 : 0}, ${lit(sha256Hex(key))}, ${lit(key.slice(-4))}, ${lit(CREATED)});`,
    );
    // 100.00 of usage balance, once: fixed ids, and the top-up SQL leaves an existing id alone.
    const tag = `${a.slug === "es" ? "ES" : "GB"}${mode === "test" ? "T" : "V"}1`;
    statements.push(
      topUpSql({
        id: `btx_0000000000000000000000${tag}`,
        accountId: a.id,
        live: mode === "live",
        cents: 10_000,
        description: "Local development credit",
        now: CREATED,
        eventId: `evt_0000000000000000000000${tag}`,
      }),
    );
  }
}

/** Seeds the local D1 (`extraArgs`, e.g. `--persist-to DIR`, go to wrangler). */
export function seedLocal(extraArgs = []) {
  for (const [database, sql] of [
    ["DB", statements],
    ["DIRECTORY", directory],
  ]) {
    wrangler(["d1", "execute", database, "--local", ...extraArgs, "--command", sql.join(" ")], {
      capture: true,
    });
  }
  console.log(
    "Seeded local accounts (usage balance 100.00 EUR each on first seed). Dev keys: sk_test_es_localdev, sk_live_es_localdev, sk_test_global_localdev, sk_live_global_localdev",
  );
}

// Run directly (`npm run db:seed:local`), not when imported by start.mjs.
if (import.meta.url === `file://${process.argv[1]}`) seedLocal(process.argv.slice(2));
