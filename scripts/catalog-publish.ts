// Publishes the tax catalog to KV, where the API serves it from byte for byte:
//
//   npm run catalog:publish              # the local KV that `npm start` serves
//   npm run catalog:publish -- --remote  # production (needs `wrangler login` there)
//
// A catalog fix is an edit under src/tax/catalog, its tests, and this command: no Worker
// deploy is needed for GET /v1/tax-regimes to serve it.
//
// After writing, the command waits out the Worker's KV cache (CATALOG_KV_CACHE_SECONDS, remote
// only), reads every document back, and writes again any that differs: a Worker that saw a
// stale miss just before the publish may have written its bundled copy back over it
// (src/tax/serve.ts explains the window). Once the wait is over, no location
// still answers a miss, so no further write-back can happen.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATALOG_KV_CACHE_SECONDS, publishedEntries } from "../src/tax/documents";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { wrangler } from "./lib.mjs";

const ROUNDS = 3;
const remote = process.argv.includes("--remote");
const where = remote ? "--remote" : "--local";
const entries = await publishedEntries(new Date().toISOString());
const dir = mkdtempSync(join(tmpdir(), "catalog-"));

function put(batch: typeof entries): void {
  const file = join(dir, "catalog.json");
  writeFileSync(file, JSON.stringify(batch));
  wrangler(["kv", "bulk", "put", file, "--binding", "CATALOG", where]);
}

/** The entries whose stored bytes are not the published ones. */
function replaced(batch: typeof entries): typeof entries {
  return batch.filter(({ key, value }) => {
    const stored: string = wrangler(["kv", "key", "get", key, "--binding", "CATALOG", where, "--text"], {
      capture: true,
    });
    // `kv key get --text` prints the value and a newline ("Value not found" for none).
    return stored.replace(/\n$/, "") !== value;
  });
}

let pending = entries;
for (let round = 1; pending.length > 0; round++) {
  if (round > ROUNDS) {
    console.error(`Not published after ${ROUNDS} rounds: ${pending.map((e) => e.key).join(", ")}.`);
    process.exit(1);
  }
  put(pending);
  if (remote) {
    console.log(`Waiting ${CATALOG_KV_CACHE_SECONDS + 10} s for cached KV misses to expire, then checking…`);
    await new Promise((resolve) => setTimeout(resolve, (CATALOG_KV_CACHE_SECONDS + 10) * 1000));
  }
  pending = replaced(pending);
}
console.log(`Published ${entries.length} catalog documents to ${remote ? "production" : "local"} KV.`);
