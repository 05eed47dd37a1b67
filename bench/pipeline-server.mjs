// The server bench/pipeline.mjs measures: `npm start`'s Workers and development settings, with
// the AEAT_CERT binding pointed at a local stand-in for AEAT (bench/aeat-standin.mjs).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { shell, WRANGLER, wranglerEnv } from "../scripts/lib.mjs";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
const STANDIN_WORKER = "invoicing-api-aeat-standin";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A copy of a Worker config of the repository for `state`: absolute paths, `npm start`'s
 * development vars and `vars`, and AEAT_CERT as a service binding to the forwarding Worker.
 * (Copies, because every Worker of a `wrangler dev` reads the .dev.vars beside its config, and
 * the repository's is `npm start`'s.)
 */
function benchConfig(file, vars) {
  let toml = readFileSync(resolve(ROOT, file), "utf8")
    .replace(/^main = "(.*)"$/m, (_, p) => `main = "${resolve(ROOT, p)}"`)
    .replace(/^migrations_dir = "(.*)"$/gm, (_, p) => `migrations_dir = "${resolve(ROOT, p)}"`)
    .replace(/^directory = "(.*)"$/m, (_, p) => `directory = "${resolve(ROOT, p)}"`)
    .replace(/"\.\/src\//g, `"${ROOT}/src/`)
    .replace(/^\[build\]$/m, `[build]\ncwd = "${ROOT}"\nwatch_dir = "${ROOT}/src"`);
  for (const [name, value] of Object.entries(vars)) {
    const line = `${name} = ${JSON.stringify(value)}`;
    const set = new RegExp(`^${name} = .*$`, "m");
    toml = set.test(toml) ? toml.replace(set, line) : toml.replace(/^\[vars\]$/m, `[vars]\n${line}`);
  }
  return `${toml}\n[[services]]\nbinding = "AEAT_CERT"\nservice = "${STANDIN_WORKER}"\n`;
}

/**
 * Starts the server on `port` with the state in `state` (set up already), its output in `log`,
 * and resolves once /health answers. The account `operator` files for itself (no
 * representation). Returns `stop()` and `cpu()`: the CPU seconds its processes (wrangler,
 * workerd: every Worker and the local D1, R2 and queues) have used so far.
 */
export async function startPipelineServer({ state, port, standinPort, log, operator }) {
  const base = `http://127.0.0.1:${port}`;
  const vars = {
    APP_ENV: "development",
    EXPOSE_DB_METRICS: "true",
    WEBHOOK_RETRY_DELAYS: "2,4,8,16",
    VERIFICATION_RETRY_DELAYS: "2,4,8,16",
    RATE_LIMITS: "off",
    VERIFACTU_OPERATOR_NIF: operator.nif,
    VERIFACTU_OPERATOR_NAME: operator.name,
  };
  mkdirSync(state, { recursive: true });
  writeFileSync(`${state}/api.toml`, benchConfig("wrangler.toml", vars));
  writeFileSync(`${state}/jobs.toml`, benchConfig("wrangler.jobs.toml", vars));
  // The forwarding Worker: whatever AEAT_CERT is asked to fetch goes to the stand-in.
  writeFileSync(
    `${state}/standin.js`,
    `export default { async fetch(req, env) {
  return fetch(env.STANDIN + new URL(req.url).pathname, { method: req.method, headers: req.headers, body: await req.text() });
} };\n`,
  );
  writeFileSync(
    `${state}/standin.toml`,
    `name = "${STANDIN_WORKER}"\nmain = "standin.js"\ncompatibility_date = "2026-08-01"\n[vars]\nSTANDIN = "http://127.0.0.1:${standinPort}"\n`,
  );
  const taken = await fetch(`${base}/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`${base} is taken: --port`);
  const server = spawn(
    WRANGLER,
    [
      "dev",
      resolve(ROOT, "src/dev/index.ts"),
      ...["-c", `${state}/api.toml`, "-c", `${state}/jobs.toml`, "-c", resolve(ROOT, "wrangler.pdf.toml")],
      ...["-c", `${state}/standin.toml`],
      ...["--ip", "127.0.0.1", "--port", String(port), "--persist-to", state],
      // info: wrangler then logs each queue batch (`QUEUE <name> <acked>/<n> (<ms>)`).
      ...["--show-interactive-dev-session=false", "--log-level", "info"],
    ],
    { cwd: ROOT, env: wranglerEnv, shell, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const out = createWriteStream(log);
  server.stdout.pipe(out);
  server.stderr.pipe(out);
  // As npm start does: the background Worker's cron every minute (the sweeps).
  const cron = setInterval(
    () =>
      fetch(`${base}/cdn-cgi/local/scheduled`).then(
        (r) => r.body?.cancel(),
        () => {},
      ),
    60_000,
  );
  const stop = () => {
    clearInterval(cron);
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  };
  // The server goes with the bench, however the bench ends.
  process.on("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(1));

  const cpu = () => {
    let ticks = 0;
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        // fields[2] is the process group; [11], [12] user and system time, in ticks (100 a second).
        if (Number(fields[2]) === server.pid) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {}
    }
    return ticks / 100;
  };

  for (let i = 0; i < 180; i++) {
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { stop, cpu };
    await sleep(500);
  }
  stop();
  throw new Error(`server did not start: see ${log}`);
}

/** CPU seconds the whole machine has spent busy (all cores, every process: /proc/stat). */
export function machineCpu() {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]) / 100;
}
