// Publishes the tax catalog to KV, where the API serves it from byte for byte:
//
//   npm run catalog:publish              # the local KV that `npm start` serves
//   npm run catalog:publish -- --remote  # production (needs `wrangler login` there)
//
// A catalog fix is an edit under src/tax/catalog, its tests, and this command: no Worker
// deploy is needed for GET /v1/tax-regimes to serve it.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { catalogDocuments } from "../src/tax/documents";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { wrangler } from "./lib.mjs";

const remote = process.argv.includes("--remote");
const entries = [...catalogDocuments()].map(([key, value]) => ({
  key,
  value,
  // The same strong ETag the Worker computes: SHA-256 of the exact bytes, quoted.
  metadata: { etag: `"${createHash("sha256").update(value).digest("hex")}"` },
}));
const file = join(mkdtempSync(join(tmpdir(), "catalog-")), "catalog.json");
writeFileSync(file, JSON.stringify(entries));
wrangler(["kv", "bulk", "put", file, "--binding", "CATALOG", remote ? "--remote" : "--local"]);
console.log(`Published ${entries.length} catalog documents to ${remote ? "production" : "local"} KV.`);
