// Where the Worker's CPU goes on one endpoint: a V8 CPU profile of the API Worker under load,
// through the inspector, summed by function (self and inclusive time). The server runs the API
// Worker alone (`npm start -- --api-only`): with all three Workers in the session, the
// inspector showed another one, all idle. Run `npm run bench` once first: this reuses its state
// (bench/.state) and adds one customer with an address.
//
//   node bench/profile.mjs                     # POST /v1/invoices, 3 lines, IVA + IRPF
//   node bench/profile.mjs --get /v1/invoices  # any GET path
//   node bench/profile.mjs --get /__bench/floor/catalog --get /v1/tax-regimes/es --rounds 2
//                                              # several, alternated, in one server
//   node bench/profile.mjs --create            # POST /v1/customers with a Spanish NIF
//
// Each profile also gives the isolate's busy time per request: the samples that are not
// "(idle)" times their interval, over the requests completed while profiling. On a shared
// machine a descheduled thread still samples as busy, so compare paths of the same run.
//
// Source lines refer to the unminified bundle:
//   npx wrangler deploy --dry-run --outdir /tmp/out --minify=false src/dev/index.ts

import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { inspect, startServer } from "./server.mjs";

const { values } = parseArgs({
  options: {
    get: { type: "string", multiple: true },
    create: { type: "boolean", default: false },
    // The create's floor (src/dev/floors.ts), recorded from one create first.
    "floor-create": { type: "boolean", default: false },
    rounds: { type: "string", default: "1" },
    top: { type: "string", default: "40" },
    duration: { type: "string", default: "5" },
  },
});
const BASE = "http://127.0.0.1:8788";
const INSPECTOR = 9231;
const HEADERS = { authorization: "Bearer sk_test_es_localdev", "content-type": "application/json" };

const server = await startServer({
  state: "bench/.state",
  port: 8788,
  args: ["--api-only", "--inspector-port", String(INSPECTOR), "--minify=false"],
});
try {
  const requests = [
    ...(values.get ?? []).map((path) => ({ path, headers: HEADERS })),
    ...(values["floor-create"] ? [await floorOfCreate()] : []),
    ...(values.create ? [creation()] : []),
  ];
  if (requests.length === 0) requests.push(await issuance());
  const session = await inspect(INSPECTOR);
  const summary = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const request of requests) {
      await autocannon({ url: BASE, connections: 10, duration: 2, requests: [request] });
      await session.send("Profiler.enable");
      await session.send("Profiler.setSamplingInterval", { interval: 100 });
      await session.send("Profiler.start");
      const run = await autocannon({
        url: BASE,
        connections: 10,
        duration: Number(values.duration),
        requests: [request],
      });
      const { profile } = await session.send("Profiler.stop");
      const name = `${request.method ?? "GET"} ${request.path}`;
      const busyMs = report(profile, run.requests.total);
      console.log(
        `^ ${name}: ${run.requests.average} req/s, ${run.non2xx} non-2xx, busy ${busyMs.toFixed(3)} ms a request\n`,
      );
      summary.push({ name, rps: run.requests.average, busyMs });
    }
  }
  console.log("\nsummary (isolate busy time per request)");
  for (const s of summary) console.log(`${s.busyMs.toFixed(3)} ms  ${s.rps} req/s  ${s.name}`);
  session.close();
} finally {
  server.stop();
}

async function floorOfCreate() {
  const { body } = creation().setupRequest({});
  const res = await fetch(`${BASE}/v1/customers`, {
    method: "POST",
    headers: { ...HEADERS, "bench-record": "create" },
    body,
  });
  if (!res.ok) throw new Error(`recording the create: ${res.status}`);
  return { method: "POST", path: "/__bench/floor/replay/create" };
}

function creation() {
  let n = 0;
  return {
    method: "POST",
    path: "/v1/customers",
    headers: HEADERS,
    setupRequest: (r) => ({
      ...r,
      body: JSON.stringify({
        name: `Perfil ${n++}`,
        tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
      }),
    }),
  };
}

async function issuance() {
  const res = await fetch(`${BASE}/v1/customers`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      name: "Perfil SA",
      tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
      address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
    }),
  });
  const customer = await res.json();
  const taxes = [
    { tax: "iva", rule: "general" },
    { tax: "irpf", rule: "professional" },
  ];
  const lines = ["Design", "Development", "Support"].map((description, i) => ({
    description,
    quantity: String(i + 1),
    unit_price: "120.50",
    taxes,
  }));
  return {
    method: "POST",
    path: "/v1/invoices",
    headers: HEADERS,
    body: JSON.stringify({ customer: customer.id, lines }),
  };
}

/** Prints self and inclusive time by function; returns the busy (non-idle) ms per request. */
function report(profile, requests) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const label = ({ callFrame: f }) =>
    `${f.functionName || "(anonymous)"} ${f.url.split("/").at(-1)}:${f.lineNumber + 1}`;
  const time = new Map();
  for (const [i, s] of profile.samples.entries())
    time.set(s, (time.get(s) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const total = [...time.values()].reduce((a, b) => a + b, 0);
  let idle = 0;
  const self = new Map();
  const inclusive = new Map();
  for (const [id, t] of time) {
    const key = label(nodes.get(id));
    if (key.startsWith("(idle)")) idle += t;
    self.set(key, (self.get(key) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parents.get(cur)) {
      const k = label(nodes.get(cur));
      if (!seen.has(k)) inclusive.set(k, (inclusive.get(k) ?? 0) + t);
      seen.add(k);
    }
  }
  const top = Number(values.top);
  for (const [title, map] of [
    ["self", self],
    ["inclusive", inclusive],
  ]) {
    console.log(`\n${title} time (% of samples, µs a request)`);
    for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${((t / total) * 100).toFixed(1).padStart(5)} % ${(t / requests).toFixed(0).padStart(6)} µs  ${k}`,
      );
  }
  return (total - idle) / 1000 / requests;
}
