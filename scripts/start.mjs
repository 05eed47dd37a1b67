// `npm start`: migrate the local D1, seed the dev accounts, serve on 127.0.0.1:8787.
//
//   npm start                               # the usual
//   npm start -- --log-level warn           # other arguments go to `wrangler dev`
//   npm start -- --persist-to DIR [--setup-only] [--port N]   # (bench/) separate state
//   npm start -- --without-jobs             # (bench/) no background Worker: nothing consumes the queues
//   npm start -- --api-only                 # (bench:profile) the API Worker alone: with all three
//                                           #   Workers, wrangler's inspector showed another one
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { shell, WRANGLER, wrangler, wranglerEnv } from "./lib.mjs";

const args = process.argv.slice(2);
const take = (flag) => {
  const i = args.indexOf(flag);
  if (i === -1) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const persistTo = take("--persist-to");
const port = take("--port") ?? "8787";
const flag = (name) => args.includes(name) && args.splice(args.indexOf(name), 1).length === 1;
const setupOnly = flag("--setup-only");
const apiOnly = flag("--api-only");
const withoutJobs = flag("--without-jobs") || apiOnly;
const persist = persistTo ? ["--persist-to", persistTo] : [];

// CI=true answers wrangler's "apply migrations?" prompt; it is a local database.
wrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], { env: { CI: "true" }, capture: true });
const { seedLocal } = await import("./seed-local.mjs");
seedLocal(persist);
if (setupOnly) process.exit(0);

// The local development settings: loopback webhook URLs, retries after seconds, D1 cost
// headers. Production never sets these. `wrangler dev --var` reaches only the first Worker of
// a multi-Worker session, while every Worker reads the .dev.vars beside its config: so they go
// there (gitignored), unless the developer keeps a .dev.vars of their own. Every [vars] key is
// written, in wrangler.toml's order: `wrangler types` reads .dev.vars too, and `npm run check`
// compares its output with the committed one.
const DEV_VARS = {
  APP_ENV: "development",
  EXPOSE_DB_METRICS: "true",
  WEBHOOK_RETRY_DELAYS: "2,4,8,16",
  VERIFICATION_RETRY_DELAYS: "2,4,8,16",
};
const MARKER = "# Written by npm start (scripts/start.mjs): edit DEV_VARS there instead.";
if (!existsSync(".dev.vars") || readFileSync(".dev.vars", "utf8").startsWith(MARKER)) {
  const { unstable_readConfig } = await import("wrangler");
  const { vars } = unstable_readConfig({ config: "wrangler.toml" });
  const lines = Object.entries({ ...vars, ...DEV_VARS }).map(([name, value]) => `${name}=${value}`);
  writeFileSync(".dev.vars", `${MARKER}\n${lines.join("\n")}\n`);
} else {
  console.warn("npm start: .dev.vars is your own, so the background Worker runs with its values.");
}

const dev = spawn(
  WRANGLER,
  [
    "dev",
    // The development entry: the production Worker plus the benchmark floors (/__bench).
    "src/dev/index.ts",
    // The three Workers in one process: the API (the first config, whose entry is the line
    // above), the background Worker with the queue consumers, and the PDF renderer.
    "-c",
    "wrangler.toml",
    ...(withoutJobs ? [] : ["-c", "wrangler.jobs.toml"]),
    ...(apiOnly ? [] : ["-c", "wrangler.pdf.toml"]),
    "--ip",
    "127.0.0.1",
    "--port",
    port,
    "--show-interactive-dev-session=false",
    ...persist,
    ...args,
  ],
  { env: wranglerEnv, stdio: "inherit", shell },
);
// `wrangler dev` fires no crons: fire the background Worker's every minute, as deployed
// (wrangler.jobs.toml), so overdue invoices, sweeps and retention happen under `npm start` too.
// The dev entry serves `scheduled` (src/dev/index.ts); a failed fire (still starting) waits for
// the next minute.
const cron = withoutJobs
  ? undefined
  : setInterval(() => {
      fetch(`http://127.0.0.1:${port}/cdn-cgi/local/scheduled`).then(
        (res) => res.body?.cancel(),
        () => {},
      );
    }, 60_000);
dev.on("exit", () => clearInterval(cron));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
