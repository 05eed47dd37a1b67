// Shared by the scripts: run wrangler offline, with no prompts and no telemetry.
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { delimiter } from "node:path";
import { fileURLToPath } from "node:url";

const binDir = fileURLToPath(new URL("../node_modules/.bin", import.meta.url));

export const wranglerEnv = {
  ...process.env,
  // Node 22 from the project's devDependencies first: wrangler needs it.
  PATH: `${binDir}${delimiter}${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

export const shell = process.platform === "win32";
// The project's own wrangler, so the scripts also work outside `npm run`.
export const WRANGLER = fileURLToPath(
  new URL(`../node_modules/.bin/wrangler${shell ? ".cmd" : ""}`, import.meta.url),
);

/** Runs `wrangler …args`; exits the script with wrangler's status when it fails. */
export function wrangler(args, { capture = false, env = {} } = {}) {
  const result = spawnSync(WRANGLER, args, {
    env: { ...wranglerEnv, ...env },
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
    shell,
  });
  if (result.status !== 0) {
    console.error(`wrangler ${args.join(" ")} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

export const sha256Hex = (s) => createHash("sha256").update(s).digest("hex");

/** SQL string literal. */
export const lit = (s) => `'${String(s).replaceAll("'", "''")}'`;

// Same id format as src/lib/ids.ts: prefix + 10 chars of ms + 16 random, Crockford base32.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export function newId(prefix) {
  let t = Date.now();
  let time = "";
  for (let i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  const random = Array.from(randomBytes(16), (b) => ALPHABET[b & 31]).join("");
  return `${prefix}_${time}${random}`;
}

/**
 * Runs `sql` on a D1 binding of wrangler.toml (`database`: a shard such as "DB", or
 * "DIRECTORY"): the local one `npm start` serves (the state in `persistTo` when given) or, with
 * `remote`, the production one. Returns wrangler's JSON output: one `{ results }` per statement.
 */
export function d1Execute(sql, { remote = false, persistTo, database = "DB" } = {}) {
  const target = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  return JSON.parse(
    wrangler(["d1", "execute", database, ...target, "--json", "--command", sql], { capture: true }),
  );
}
