/**
 * What the tooling tests of the operator scripts share: the project root, the Node 22 of the
 * devDependencies (what npm scripts run, whatever `node` the machine has), a throwaway local
 * state made by `npm start`'s setup, and SQL on such a state through wrangler.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect } from "vitest";

export const root = decodeURIComponent(new URL("../../", import.meta.url).pathname);
export const NODE = `${root}node_modules/.bin/node`;
export const WRANGLER = `${root}node_modules/wrangler/bin/wrangler.js`;
/** The seed's Spanish account (scripts/seed-local.mjs). */
export const ES_ACCOUNT = "acct_0000000000000000000000ES01";

/** Runs a Node script of the project from its root, with its exit code and output. */
export function runNode(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(NODE, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `runNode`, failing the test unless the script exits 0; its standard output. */
export function runOk(args: string[], env: Record<string, string> = {}): string {
  const run = runNode(args, env);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** A new temporary state directory, migrated and seeded by `npm start`'s setup (never the developer's). */
export function seededState(prefix: string): string {
  const state = mkdtempSync(`${tmpdir()}/${prefix}-`);
  runOk(["scripts/start.mjs", "--persist-to", state, "--setup-only"]);
  return state;
}

/** Runs `sql` on the DB of the local state in `state`; one result list per statement. */
export function d1(state: string, sql: string): Record<string, unknown>[][] {
  const out = runOk([
    WRANGLER,
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    state,
    "--json",
    "--command",
    sql,
  ]);
  return (JSON.parse(out) as { results: Record<string, unknown>[] }[]).map((r) => r.results);
}

/** Every file under `dir` (the database, its -wal and -shm, miniflare's metadata), sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((file) => `${dir}/${file}`)
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** SHA-256 of a string (as UTF-8) or of bytes, in hex. */
export const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Each file's SHA-256 under a state: even a read-only `wrangler d1 execute` changes its -wal/-shm. */
export function fingerprint(state: string): Record<string, string> {
  return Object.fromEntries(filesUnder(state).map((path) => [path, sha256Hex(readFileSync(path))]));
}
