// `npm start`: migrate the local D1, seed the dev accounts, serve on 127.0.0.1:8787.
// Extra arguments go to `wrangler dev` (e.g. `npm start -- --log-level warn`).
import { spawn } from "node:child_process";
import { wrangler, wranglerEnv } from "./lib.mjs";

// CI=true answers wrangler's "apply migrations?" prompt; it is a local database.
wrangler(["d1", "migrations", "apply", "DB", "--local"], { env: { CI: "true" } });
await import("./seed-local.mjs");

const dev = spawn(
  "wrangler",
  [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    "8787",
    "--show-interactive-dev-session=false",
    // The local development configuration: loopback webhook URLs, short retry delays,
    // D1 cost headers. Production never sets these.
    "--var",
    "APP_ENV:development",
    "--var",
    "EXPOSE_DB_METRICS:true",
    "--var",
    "WEBHOOK_RETRY_DELAYS:2,4,8,16",
    ...process.argv.slice(2),
  ],
  { env: wranglerEnv, stdio: "inherit", shell: process.platform === "win32" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
