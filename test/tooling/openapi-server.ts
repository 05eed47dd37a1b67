/**
 * The API Worker as `wrangler dev` serves it (its static assets included, which the workerd
 * tests cannot reach), on a free port with its own state, for the tests that need HTTP.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";

const bin = decodeURIComponent(new URL("../../node_modules/.bin", import.meta.url).pathname);
const root = decodeURIComponent(new URL("../../", import.meta.url).pathname);

/** The project's own wrangler, run as scripts/lib.mjs runs it: Node 22 first on PATH, offline. */
export const WRANGLER = `${bin}/wrangler`;
export const env: Record<string, string | undefined> = {
  ...process.env,
  PATH: `${bin}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** `preferred` when it is free (so the screenshot's URLs stay the same run to run), else any free port. */
function freePort(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.on("error", () => resolve(freePort(0)));
    server.listen(preferred, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export type DevServer = { base: string; stop: () => Promise<void> };

/**
 * Starts `wrangler dev` with wrangler.toml (its [build] regenerates the assets first) and
 * resolves once `/health` answers; `stop` ends it and removes its state.
 */
export async function startDevServer(timeoutMs = 90_000): Promise<DevServer> {
  const port = await freePort(8797);
  const state = mkdtempSync(`${tmpdir()}/docs-dev-`);
  const child = spawn(
    WRANGLER,
    ["dev", "-c", "wrangler.toml", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state].concat(
      ["--show-interactive-dev-session=false", "--log-level", "warn"],
    ),
    { cwd: root, env, stdio: "pipe" },
  );
  let output = "";
  const decoder = new TextDecoder();
  child.stdout.on("data", (chunk) => {
    output += decoder.decode(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += decoder.decode(chunk);
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(state, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${base}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { base, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not start on ${base}:\n${output}`);
}
