// Webhook fan-out benchmark: N customer.created events delivered through the local queue
// to a signature-verifying receiver on 127.0.0.1. Measures deliveries per second and
// event → receipt latency (event created_at to the receiver's clock, same machine).
//
//   npm run bench:webhooks                   # 500 events, 10 concurrent API clients
//   npm run bench:webhooks -- --events 2000
//   npm run bench:webhooks -- --rate 40      # creates paced at 40/s (open loop) instead of as fast as 10 clients go
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { startReceiver, startServer } from "./server.mjs";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "500" },
    concurrency: { type: "string", default: "10" },
    // Creates a second, started on a fixed schedule: latency below saturation.
    rate: { type: "string" },
    port: { type: "string", default: "8789" },
    "receiver-port": { type: "string", default: "9099" },
  },
});
const N = Number(values.events);
const BASE = `http://127.0.0.1:${values.port}`;
const STATE = "bench/.state-webhooks";
const HEADERS = { authorization: "Bearer sk_test_es_localdev", "content-type": "application/json" };

rmSync(STATE, { recursive: true, force: true });
const setup = spawnSync("node", ["scripts/start.mjs", "--persist-to", STATE, "--setup-only"], {
  stdio: "inherit",
});
if (setup.status !== 0) process.exit(1);
const server = await startServer({ state: STATE, port: values.port });
const stop = server.stop;

const received = new Map(); // event id → latency ms
let lastReceipt = 0;
const receiver = await startReceiver(Number(values["receiver-port"]), (event) => {
  if (!received.has(event.id)) received.set(event.id, Date.now() - Date.parse(event.created_at));
  lastReceipt = Date.now();
});

try {
  const dest = await fetch(`${BASE}/v1/event-destinations`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      name: "bench receiver",
      url: `http://127.0.0.1:${values["receiver-port"]}/webhooks`,
      enabled_events: ["customer.created"],
    }),
  }).then((r) => r.json());
  if (!dest.secret) throw new Error(`destination not created: ${JSON.stringify(dest)}`);
  receiver.secret = dest.secret;

  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < N) {
      const i = next++;
      if (values.rate) {
        const due = started + (i * 1000) / Number(values.rate);
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
      const res = await fetch(`${BASE}/v1/customers`, {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify({
          name: `Fan-out ${i}`,
          tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
        }),
      });
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  const created = Date.now();
  const deadline = Date.now() + 120_000;
  while (received.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const latencies = [...received.values()].sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const seconds = (lastReceipt - started) / 1000;
  console.log(
    "\n| events | delivered | bad signatures | creates/s | deliveries/s | latency p50 ms | p99 ms | max ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${N} | ${received.size} | ${receiver.badSignatures} | ${(N / ((created - started) / 1000)).toFixed(0)} | ${(received.size / seconds).toFixed(0)} | ${pct(50)} | ${pct(99)} | ${latencies.at(-1)} |`,
  );
} finally {
  receiver.close();
  stop();
}
