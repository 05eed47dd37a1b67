// Bundle size and startup CPU of the three Workers: `wrangler deploy --dry-run` for the upload
// size (what the 100 KiB gzipped budget of the API Worker is about) and `wrangler check
// startup` for a V8 profile of the Worker's global scope, summed here (busy = not idle).
// Local CPU, not Cloudflare's: compare runs on one machine, not with the platform's limits.
//
//   node bench/startup.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WORKERS = { api: "wrangler.toml", jobs: "wrangler.jobs.toml", pdf: "wrangler.pdf.toml" };
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const wrangler = (args) =>
  execFileSync(process.execPath, ["node_modules/wrangler/bin/wrangler.js", ...args], {
    env,
    encoding: "utf8",
  });

const dir = mkdtempSync(join(tmpdir(), "startup-"));
const rows = [];
for (const [name, config] of Object.entries(WORKERS)) {
  const dry = wrangler(["deploy", "--dry-run", "--outdir", join(dir, name), "-c", config]);
  const [, total, gzip] = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(dry) ?? [];
  const profile = join(dir, `${name}.cpuprofile`);
  wrangler(["check", "startup", "-c", config, "--outfile", profile]);
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(profile, "utf8"));
  const idle = new Set(nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const busy = samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : timeDeltas[i]), 0) / 1000;
  rows.push({ worker: name, config, upload: total, gzip, startup_cpu_ms: Number(busy.toFixed(1)) });
}
console.table(rows);
