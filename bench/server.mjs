// The benchmarks' server: `npm start` on its own state and port, waited for until it answers.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import WebSocket from "ws";
import { verify } from "../scripts/receiver.mjs";

/**
 * Starts `npm start` (through scripts/start.mjs) on `state` and `port` and resolves once
 * /health answers; `stop()` ends it. RATE_LIMITS:off and a Test write budget out of reach,
 * because one key at hundreds of requests a second would be all 429s; `args` go to `wrangler dev`. With BENCH_SERVER_LOG=<file>
 * the server's output (the Workers' console.warn and errors) goes to that file, for timing
 * probes added while investigating (bench/README.md, delivery latency).
 */
export async function startServer({ state, port, args = [] }) {
  const server = spawn(
    "node",
    [
      "scripts/start.mjs",
      ...["--persist-to", state, "--port", String(port), "--log-level", "warn"],
      ...["--var", "RATE_LIMITS:off"],
      // One Test key writes far more than a Test day's write budget (src/http/write-budget.ts).
      ...["--var", "WRITE_BUDGET_TEST_BYTES:1000000000000"],
      ...args,
    ],
    { stdio: process.env.BENCH_SERVER_LOG ? ["ignore", "pipe", "pipe"] : "ignore", detached: true },
  );
  if (process.env.BENCH_SERVER_LOG) {
    const { createWriteStream } = await import("node:fs");
    const log = createWriteStream(process.env.BENCH_SERVER_LOG);
    server.stdout.pipe(log);
    server.stderr.pipe(log);
  }
  const stop = () => process.kill(-server.pid, "SIGTERM");
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return { stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  throw new Error("server did not start");
}

/**
 * A DevTools protocol session with the first isolate `wrangler dev --inspector-port` lists (the
 * API Worker under `npm start -- --api-only`), for CPU profiles.
 */
export async function inspect(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve) => ws.on("open", resolve));
  const pending = new Map();
  let id = 0;
  ws.on("message", (raw) => {
    const msg = JSON.parse(raw);
    pending.get(msg.id)?.(msg.result);
    pending.delete(msg.id);
  });
  return {
    title: target.title,
    send: (method, params = {}) =>
      new Promise((resolve) => {
        pending.set(++id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/**
 * A local webhook receiver on `port` that checks each delivery's signature with `secret` (set
 * once the destination is created) and hands each verified event to `onEvent`; a bad signature
 * is answered 400 and counted.
 */
export async function startReceiver(port, onEvent) {
  const receiver = { secret: "", badSignatures: 0, close: () => server.close() };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (!verify(req.headers["service-signature"], raw, receiver.secret)) {
        receiver.badSignatures++;
        res.writeHead(400).end();
        return;
      }
      onEvent(JSON.parse(raw));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return receiver;
}
