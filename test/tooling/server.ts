/**
 * `npm start` for the tests that need the whole service over HTTP (the three Workers in one
 * process, as a newcomer runs it): on a free port of 127.0.0.1 with a local state of its own,
 * migrated and seeded first as bench/ does, and stopped with everything it started.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";

export const root = decodeURIComponent(new URL("../../", import.meta.url).pathname);
/** Node 22 of the devDependencies (what npm scripts run), whatever `node` the machine has. */
export const NODE = `${root}node_modules/.bin/node`;

// node.d.ts types `process` only as far as the other tooling tests use it.
const nodeProcess = process as unknown as {
  /** A negative pid signals the whole process group. */
  kill(pid: number, signal: "SIGTERM" | "SIGKILL"): boolean;
};

/** Signals a process group; one that has already gone is fine. */
function stopGroup(pid: number, signal: "SIGTERM" | "SIGKILL") {
  try {
    nodeProcess.kill(-pid, signal);
  } catch {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export type NpmStart = {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** What the server has printed so far (wrangler, workerd), for failure messages. */
  output(): string;
  /** Stops the server and its children, then removes its state. */
  stop(): Promise<void>;
};

/**
 * Runs `npm start` (scripts/start.mjs) on its own port and state; resolves once `/health`
 * answers. `prefix` names the temp state folder; `args` go to `wrangler dev` (such as
 * `--var RATE_LIMITS:off`, which the development settings allow).
 */
export async function startNpmStart(prefix: string, args: string[] = []): Promise<NpmStart> {
  // As bench/ does: migrate and seed a state of its own first, then serve it.
  const state = mkdtempSync(`${tmpdir()}/${prefix}-`);
  const setup = spawnSync(NODE, ["scripts/start.mjs", "--persist-to", state, "--setup-only"], {
    cwd: root,
    encoding: "utf8",
  });
  if (setup.status !== 0) {
    rmSync(state, { recursive: true, force: true });
    throw new Error(`npm start --setup-only failed:\n${setup.stdout}${setup.stderr}`);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Its own process group: stopping it stops wrangler and workerd under it.
  const child = spawn(
    NODE,
    ["scripts/start.mjs", "--persist-to", state, "--port", String(port), "--log-level", "warn", ...args],
    { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      output += decoder.decode(chunk);
    });
  }
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.pid !== undefined) {
      // The whole group, even when start.mjs itself is gone: wrangler and workerd run under it.
      stopGroup(child.pid, "SIGTERM");
      if (child.exitCode === null) await Promise.race([exited, sleep(10_000)]);
      stopGroup(child.pid, "SIGKILL");
    }
    rmSync(state, { recursive: true, force: true });
  };
  // 20-40 s on a busy 2-core machine; much more means something is wrong.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const up = await fetch(`${base}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { base, output: () => output, stop };
    await sleep(500);
  }
  await stop();
  throw new Error(`npm start did not answer on ${base}:\n${output}`);
}
