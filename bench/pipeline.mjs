// Issuance pipeline benchmark (issue 31 item 3): C concurrent clients issue N Spanish Live
// invoices; a local receiver times, for each invoice, its 201 to its
// `invoice.verifactu_registration.accepted` and to its `invoice.pdf.generated`.
//
//   npm run bench:pipeline                          # 300 invoices, 10 clients, AEAT wait 60 s
//   npm run bench:pipeline -- --invoices 1000 --wait 2
//   npm run bench:pipeline -- --aeat-latency 500    # the stand-in takes 0.5 s to answer
//
// Prints a JSON summary and a table row; keeps it in bench/results/pipeline-<time>.json with
// the Workers' log beside it (.log). Results and where the time goes: bench/results/pipeline.md.
//
// The Workers are `npm start`'s three (the API through its development entry, the background
// Worker, the PDF renderer) with `npm start`'s development settings, in one `wrangler dev` on
// fresh state (bench/.state-pipeline), plus one thing: the AEAT_CERT binding, which makes Live
// Spanish issuance ready, is a service binding to a tiny forwarding Worker that hands each
// request to bench/aeat-standin.mjs (AEAT's answers and TiempoEsperaEnvio, flow control and
// chain order checked). No file of src/ changes: the Live registry code (src/verifactu/aeat.ts,
// answer.ts) runs as deployed, only its certificate binding's `fetch` lands on the stand-in.
// The configs are copies of wrangler.toml and wrangler.jobs.toml written into the state
// directory (with absolute paths), because the repository's .dev.vars is `npm start`'s.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { startStandin } from "./aeat-standin.mjs";
import { machineCpu, startPipelineServer } from "./pipeline-server.mjs";
import { startReceiver } from "./server.mjs";

const { values } = parseArgs({
  options: {
    invoices: { type: "string", default: "300" },
    concurrency: { type: "string", default: "10" },
    // The TiempoEsperaEnvio the stand-in answers (AEAT's documented value: 60).
    wait: { type: "string", default: "60" },
    "aeat-latency": { type: "string", default: "0" },
    port: { type: "string", default: "8743" },
    "receiver-port": { type: "string", default: "9743" },
    "standin-port": { type: "string", default: "9744" },
    // Seconds without a new event before giving up on the rest.
    patience: { type: "string" },
  },
});
const N = Number(values.invoices);
const WAIT = Number(values.wait);
const ROOT = resolve(new URL("..", import.meta.url).pathname);
const STATE = resolve(ROOT, "bench/.state-pipeline");
const BASE = `http://127.0.0.1:${values.port}`;
const ACCOUNT = "acct_0000000000000000000000ES01";
const HEADERS = { authorization: "Bearer sk_live_es_localdev", "content-type": "application/json" };
const NIF = "B12345674"; // the dev Spanish account's NIF (scripts/seed-local.mjs)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg().map((l) => l.toFixed(2));
const loadBefore = load();

// --- state: migrations and the dev seed, then enough Live balance for N issuances (0.10 each)
rmSync(STATE, { recursive: true, force: true });
const run = (args) => {
  const r = spawnSync("node", args, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed`);
};
run(["scripts/start.mjs", "--persist-to", STATE, "--setup-only"]);
if (N > 900) {
  const amount = `${Math.ceil(N / 10) + 10}.00`;
  run([
    "scripts/balance-top-up.mjs",
    "--account",
    ACCOUNT,
    "--mode",
    "live",
    "--amount",
    amount,
    "--persist-to",
    STATE,
  ]);
}

// --- the stand-in, the receiver, the server
const standin = await startStandin({
  port: Number(values["standin-port"]),
  waitSeconds: WAIT,
  latencyMs: Number(values["aeat-latency"]),
});
const events = new Map(); // `${type} ${invoice}` → { at, created }
let lastEvent = Date.now();
const receiver = await startReceiver(Number(values["receiver-port"]), (event) => {
  if (!event.related_object) return;
  const key = `${event.type} ${event.related_object.id}`; // thin events: the invoice is the related object
  if (!events.has(key)) events.set(key, { at: Date.now(), created: Date.parse(event.created_at) });
  lastEvent = Date.now();
});

// Kept beside the results (git-ignored, as *.log), since the next run clears the state.
const LOG = resolve(
  ROOT,
  `bench/results/pipeline-${new Date().toISOString().replace(/[:.]/g, "").slice(0, 17)}.log`,
);
mkdirSync(resolve(ROOT, "bench/results"), { recursive: true });
const server = await startPipelineServer({
  state: STATE,
  port: values.port,
  standinPort: values["standin-port"],
  log: LOG,
  operator: { nif: NIF, name: "Local Dev Ibérica SL" },
});
const serverCpu = server.cpu;

async function api(method, path, body) {
  const res = await fetch(BASE + path, { method, headers: HEADERS, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}
const pct = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const s = (ms) => (ms === undefined ? "-" : (ms / 1000).toFixed(2));

try {
  const dest = await api("POST", "/v1/event-destinations", {
    name: "pipeline bench",
    url: `http://127.0.0.1:${values["receiver-port"]}/webhooks`,
    enabled_events: [
      "invoice.verifactu_registration.accepted",
      "invoice.verifactu_registration.accepted_with_errors",
      "invoice.verifactu_registration.rejected",
      "invoice.pdf.generated",
    ],
  });
  receiver.secret = dest.secret;
  const customer = await api("POST", "/v1/customers", {
    name: "Cliente Bench SA",
    tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
    address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
  });
  const body = {
    customer: customer.id,
    lines: ["Design", "Development", "Support"].map((description, i) => ({
      description,
      quantity: String(i + 1),
      unit_price: "120.50",
      taxes: [
        { tax: "iva", rule: "general" },
        { tax: "irpf", rule: "professional" },
      ],
    })),
  };

  // --- issue
  const issued = new Map(); // invoice id → { at, number }
  const cpuBefore = serverCpu();
  const benchCpuBefore = process.cpuUsage();
  const started = Date.now();
  // Every 5 s: seconds since the first issuance, the server's and the machine's CPU seconds.
  const samples = [];
  const sample = () => samples.push([(Date.now() - started) / 1000, serverCpu(), machineCpu()]);
  sample();
  const sampler = setInterval(sample, 5000);
  let next = 0;
  const client = async () => {
    while (next < N) {
      next++;
      const invoice = await api("POST", "/v1/invoices", body);
      issued.set(invoice.id, { at: Date.now(), number: invoice.number });
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, client));
  const issuedAt = Date.now();
  console.error(`issued ${N} in ${s(issuedAt - started)} s; waiting for events`);

  // --- wait for both events of every invoice (or for the events to stop coming)
  const patience = Number(values.patience ?? Math.max(120, 3 * WAIT + 30)) * 1000;
  const want = (type) => [...issued.keys()].filter((id) => events.has(`${type} ${id}`)).length;
  const ACCEPTED = "invoice.verifactu_registration.accepted";
  const PDF = "invoice.pdf.generated";
  while ((want(ACCEPTED) < N || want(PDF) < N) && Date.now() - lastEvent < patience) await sleep(500);
  const done = Date.now();
  clearInterval(sampler);
  sample();
  const cpu = serverCpu() - cpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);

  // --- latencies and where they go
  const reg = [];
  const pdf = [];
  // toSend = hold (AEAT's wait not passed yet) + overhead (queue, claim, sealing, the request);
  // then the stand-in's answer, the verdicts and events written (answerToEvent), and the
  // webhook's delivery. A PDF: 201 → its event written (pdfMade: queue, render, store), delivery.
  const parts = {
    toSend: [],
    hold: [],
    overhead: [],
    answerToEvent: [],
    delivery: [],
    pdfMade: [],
    pdfDelivery: [],
  };
  const requests = standin.stats.requests.filter((r) => r.nif === NIF);
  for (const [id, { at, number }] of issued) {
    const accepted = events.get(`${ACCEPTED} ${id}`);
    const generated = events.get(`${PDF} ${id}`);
    if (generated) {
      pdf.push(generated.at - at);
      parts.pdfMade.push(generated.created - at);
      parts.pdfDelivery.push(generated.at - generated.created);
    }
    if (!accepted) continue;
    reg.push(accepted.at - at);
    parts.delivery.push(accepted.at - accepted.created);
    const sent = standin.stats.records.get(number);
    if (sent === undefined) continue;
    parts.toSend.push(sent - at);
    // The flow-control hold: the part of 201 → send during which AEAT's wait had not passed.
    const k = requests.findIndex((r) => r.at === sent);
    const previous = requests[k - 1];
    const notBefore = previous ? previous.answered + WAIT * 1000 : 0;
    const hold = Math.max(0, Math.min(sent, notBefore) - at);
    parts.hold.push(hold);
    parts.overhead.push(sent - at - hold);
    parts.answerToEvent.push(accepted.created - requests[k].answered);
  }

  function rate(type) {
    const created = [...events].filter(([k]) => k.startsWith(`${type} `)).map(([, e]) => e.created);
    return created.length / ((Math.max(...created) - started) / 1000);
  }

  const stored = { records: 0, unlinked: 0, timeInversions: 0, attempts: {}, status: {} };
  const r2Objects = {};
  const { DatabaseSync } = await import("node:sqlite");
  const readState = () => {
    // --- the chain as stored: in seq order, each record linked to the one before it
    const sqliteFile = (dir) =>
      readdirSync(`${STATE}/v3/${dir}`)
        .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
        .map((f) => `${STATE}/v3/${dir}/${f}`);
    const [d1File] = sqliteFile("d1/miniflare-D1DatabaseObject");
    const d1 = new DatabaseSync(d1File, { readOnly: true });
    let before = null;
    for (const row of d1
      .prepare(
        "SELECT seq, status, record, hash, generated_at, attempts FROM verifactu_records WHERE live = 1 ORDER BY issuer_nif, seq",
      )
      .all()) {
      const record = JSON.parse(row.record);
      const link = record.Encadenamiento?.RegistroAnterior?.Huella ?? null;
      if (before ? link !== before.hash : record.Encadenamiento?.PrimerRegistro !== "S") stored.unlinked++;
      if (before && row.generated_at < before.generated_at) stored.timeInversions++;
      stored.records++;
      stored.status[row.status] = (stored.status[row.status] ?? 0) + 1;
      stored.attempts[row.attempts] = (stored.attempts[row.attempts] ?? 0) + 1;
      before = row;
    }
    d1.close();
    // --- R2: the stored PDFs (invoices/…) and the archive (archive/…: src/archive/write.ts)
    for (const file of sqliteFile("r2/miniflare-R2BucketObject")) {
      const r2 = new DatabaseSync(file, { readOnly: true });
      const tables = r2.prepare("SELECT name FROM sqlite_master WHERE name = '_mf_objects'").all();
      for (const o of tables.length ? r2.prepare("SELECT key, size FROM _mf_objects").all() : []) {
        const kind = `${o.key.split("/")[0]} .${o.key.split(".").pop()}`;
        r2Objects[kind] ??= { objects: 0, bytes: 0 };
        r2Objects[kind].objects++;
        r2Objects[kind].bytes += o.size;
      }
      r2.close();
    }
  };
  try {
    readState();
  } catch (err) {
    stored.error = String(err);
  }

  // --- what the wave's other writes cost in D1, on these invoices (D1-Rows-* headers)
  const ids = [...issued.keys()];
  const costs = {};
  const cost = async (name, path, payload) => {
    const res = await fetch(BASE + path, { method: "POST", headers: HEADERS, body: JSON.stringify(payload) });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    costs[name] ??= [];
    costs[name].push(`${res.headers.get("d1-rows-read")} / ${res.headers.get("d1-rows-written")}`);
  };
  const extras = async () => {
    for (const id of ids.slice(0, 3)) {
      await cost("POST /v1/invoices/{id}/payments (part)", `/v1/invoices/${id}/payments`, {
        amount: "100.00",
      });
      await cost("POST /v1/invoices/{id}/payments (the rest: paid)", `/v1/invoices/${id}/payments`, {
        amount: (await api("GET", `/v1/invoices/${id}`)).amount_remaining,
      });
    }
    for (const id of ids.slice(3, 6))
      await cost("POST /v1/invoices/{id}/void", `/v1/invoices/${id}/void`, { reason: "Issued in error" });
  };
  await extras().catch((err) => {
    costs.error = [String(err)];
  });

  // --- the consumers' batches, from wrangler's log ("QUEUE invoice-pdfs 10/10 (345ms)")
  const queues = {};
  for (const m of readFileSync(LOG, "utf8")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .matchAll(/QUEUE (\S+) (\d+)\/(\d+) \((\d+)ms\)/g)) {
    queues[m[1]] ??= { batches: 0, messages: 0, ms: 0, sizes: [], durations: [] };
    const q = queues[m[1]];
    q.batches++;
    q.messages += Number(m[3]);
    q.ms += Number(m[4]);
    q.sizes.push(Number(m[3]));
    q.durations.push(Number(m[4]));
  }

  const result = {
    at: new Date(started).toISOString(),
    invoices: N,
    concurrency: Number(values.concurrency),
    wait_s: WAIT,
    aeat_latency_ms: Number(values["aeat-latency"]),
    load_before: loadBefore,
    load_after: load(),
    issue_s: (issuedAt - started) / 1000,
    issues_per_s: N / ((issuedAt - started) / 1000),
    drained_s: (done - started) / 1000,
    // Sustained rates: events written per second from the first issuance to the last event.
    registered_per_s: rate(ACCEPTED),
    pdfs_per_s: rate(PDF),
    registration: { count: reg.length, p50: pct(reg, 50), p99: pct(reg, 99), max: pct(reg, 100) },
    pdf: { count: pdf.length, p50: pct(pdf, 50), p99: pct(pdf, 99), max: pct(pdf, 100) },
    where: Object.fromEntries(
      Object.entries(parts).map(([k, v]) => [k, { p50: pct(v, 50), p99: pct(v, 99) }]),
    ),
    aeat: {
      requests: requests.length,
      records: requests.map((r) => r.records),
      // Each request: sent (s after the first issuance), answered (ms later), records.
      timeline: requests.map((r) => [(r.at - started) / 1000, r.answered - r.at, r.records]),
      census_checks: standin.stats.census,
      violations: standin.stats.violations,
      chain: standin.stats.chain,
    },
    queues: Object.fromEntries(
      Object.entries(queues).map(([name, q]) => [
        name,
        {
          batches: q.batches,
          messages: q.messages,
          mean_batch: q.messages / q.batches,
          mean_ms: q.ms / q.batches,
          busy_s: q.ms / 1000,
          slowest_ms: [...q.durations].sort((a, b) => b - a).slice(0, 10),
        },
      ]),
    ),
    // On 2 cores shared with the bench (and, today, with other engineers' tests).
    cpu: {
      server_s: cpu,
      server_cores: cpu / ((done - started) / 1000),
      bench_s: (benchCpu.user + benchCpu.system) / 1e6,
      // Cores busy in each 5 s step: the server's, and the whole machine's (others' tests too).
      cores: samples.slice(1).map(([t, server, machine], i) => {
        const [t0, server0, machine0] = samples[i];
        return [
          Math.round(t),
          +((server - server0) / (t - t0)).toFixed(2),
          +((machine - machine0) / (t - t0)).toFixed(2),
        ];
      }),
    },
    stored_chain: stored,
    d1_rows_read_written: costs,
    r2_objects: r2Objects,
    bad_signatures: receiver.badSignatures,
  };
  mkdirSync(resolve(ROOT, "bench/results"), { recursive: true });
  const file = `bench/results/pipeline-${result.at.replace(/[:.]/g, "").slice(0, 17)}.json`;
  writeFileSync(resolve(ROOT, file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  console.log(
    "\n| invoices | wait s | issue/s | registration p50 s | p99 s | PDF p50 s | p99 s | accepted | PDFs | AEAT requests | violations | chain breaks | load |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const v = result.aeat.violations;
  console.log(
    `| ${N} | ${WAIT} | ${result.issues_per_s.toFixed(0)} | ${s(result.registration.p50)} | ${s(result.registration.p99)} | ${s(result.pdf.p50)} | ${s(result.pdf.p99)} | ${reg.length} | ${pdf.length} | ${requests.length} | ${v.tooMany + v.concurrent + v.early} | ${result.aeat.chain.breaks} | ${loadBefore[0]} |`,
  );
  console.error(`results: ${file}`);
} finally {
  receiver.close();
  standin.close();
  server.stop();
}
process.exit(0);
