// Worker CPU time per request, endpoint by endpoint: a V8 CPU profile of the API Worker's
// isolate (through the inspector, as bench/profile.mjs) while N requests of one endpoint run
// one after another, its non-idle samples counted ("(program)" and "(garbage collector)"
// included) times the sampling interval, divided by N (see `cpuMs`). D1, KV, R2 and the PDF
// renderer run in other isolates, so their time is not in it. The server is `npm start --
// --api-only` (with more Workers in the session the inspector shows another one) on a state of
// its own, with the Spanish dev key; nothing consumes the queues. The endpoints that call the
// renderer Worker reach it only if one runs in another `wrangler dev` (the dev registry);
// otherwise they are reported as failed. Each line also has the last response's
// D1-Round-Trips / D1-Rows-Read / D1-Rows-Written.
//
//   node bench/endpoint-cpu.mjs                      # every endpoint, 100 requests each
//   node bench/endpoint-cpu.mjs --n 200 --only "GET /v1/invoices/{id}"
//   node bench/endpoint-cpu.mjs --json bench/results/endpoint-cpu.json

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { inspect, startServer } from "./server.mjs";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100" },
    only: { type: "string" },
    json: { type: "string" },
    state: { type: "string", default: "bench/.state-endpoint-cpu" },
  },
});
const N = Number(values.n);
const WARM = 20;
const INTERVAL_US = 250;
const PORT = 8789;
const INSPECTOR = 9232;
const BASE = `http://127.0.0.1:${PORT}`;
const KEY = "sk_test_es_localdev";

async function call(method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, headers: res.headers };
}

async function ok(method, path, body) {
  const res = await call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json;
}

const iva = { tax: "iva", rule: "general" };
const irpf = { tax: "irpf", rule: "professional" };
const threeLines = ["Design", "Development", "Support"].map((description) => ({
  description,
  quantity: "3",
  unit_price: "33.333",
  taxes: [iva, irpf],
}));
const oneLine = [{ description: "Service", quantity: "1", unit_price: "100", taxes: [iva] }];
const customerBody = {
  name: "Cliente Ejemplo SA",
  tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
  address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
};
const instructionBody = {
  label: "Main account",
  type: "bank_transfer",
  bank_transfer: { beneficiary: "Acme Servicios SL", iban: "ES9121000418450200051332", bic: "CAIXESBBXXX" },
};
// Subscribed to an event no request here records: no write below gets a listener.
const destinationBody = {
  name: "Hooks",
  url: "https://hooks.example.com/in",
  enabled_events: ["invoice.overdue"],
};

const same = (request) => async (n) => Array.from({ length: n }, () => request);
/** One request per object made by `make` (sequentially: D1 takes one write at a time). */
const each = (make, request) => async (n) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(request(await make(i)));
  return out;
};

/** Objects every case may use, made once. */
async function fixtures() {
  const customer = await ok("POST", "/v1/customers", customerBody);
  const instruction = await ok("POST", "/v1/payment-instructions", instructionBody);
  const invoice = await ok("POST", "/v1/invoices", { customer: customer.id, lines: threeLines });
  const draft = await ok("POST", "/v1/invoices", { draft: true, customer: customer.id, lines: threeLines });
  const toPay = await ok("POST", "/v1/invoices", {
    customer: customer.id,
    lines: [{ ...oneLine[0], unit_price: "10000" }],
  });
  const payment = await ok("POST", `/v1/invoices/${toPay.id}/payments`, { amount: "1.00" });
  const destinations = (await ok("GET", "/v1/event-destinations?limit=100")).data;
  for (const d of destinations) await ok("DELETE", `/v1/event-destinations/${d.id}`);
  const destination = await ok("POST", "/v1/event-destinations", destinationBody);
  const event = (await ok("GET", "/v1/events?limit=1")).data[0];
  const transaction = (await ok("GET", "/v1/balance-transactions?limit=1")).data[0];
  const dated = (await ok("GET", "/v1/invoices?issue_date[gte]=2000-01-01&limit=2")).data[1];
  return { customer, instruction, invoice, draft, toPay, payment, destination, event, transaction, dated };
}

/** [name, status, the requests (warm-up first)]. */
function cases(f) {
  const invoice = (path) => `/v1/invoices/${f.invoice.id}${path}`;
  const dest = (path) => `/v1/event-destinations/${f.destination.id}${path}`;
  const newDraft = () =>
    ok("POST", "/v1/invoices", { draft: true, customer: f.customer.id, lines: threeLines });
  return [
    ["floor: GET /health (no bindings)", 200, same(["GET", "/health"])],
    [
      "floor: raw D1 read of an invoice by id",
      200,
      same(["GET", `/__bench/d1-read/invoices/${f.invoice.id}`]),
    ],
    ["GET /v1/account", 200, same(["GET", "/v1/account"])],
    ["PATCH /v1/account", 200, same(["PATCH", "/v1/account", { legal_name: "Emisora Ejemplo SL" }])],
    ["GET /v1/balance", 200, same(["GET", "/v1/balance"])],
    ["GET /v1/balance-transactions", 200, same(["GET", "/v1/balance-transactions"])],
    ["GET /v1/balance-transactions/{id}", 200, same(["GET", `/v1/balance-transactions/${f.transaction.id}`])],
    ["POST /v1/customers", 201, same(["POST", "/v1/customers", customerBody])],
    ["GET /v1/customers/{id}", 200, same(["GET", `/v1/customers/${f.customer.id}`])],
    ["GET /v1/customers", 200, same(["GET", "/v1/customers"])],
    ["GET /v1/customers?q=", 200, same(["GET", "/v1/customers?q=Ejemplo"])],
    [
      "PATCH /v1/customers/{id}",
      200,
      same(["PATCH", `/v1/customers/${f.customer.id}`, { name: "Cliente Ejemplo SA" }]),
    ],
    [
      "DELETE /v1/customers/{id}",
      204,
      each(
        () => ok("POST", "/v1/customers", customerBody),
        (c) => ["DELETE", `/v1/customers/${c.id}`],
      ),
    ],
    ["GET /v1/tax-ids/{id}", 200, same(["GET", `/v1/tax-ids/${f.customer.tax_id.id}`])],
    ["POST /v1/payment-instructions", 201, same(["POST", "/v1/payment-instructions", instructionBody])],
    ["GET /v1/payment-instructions/{id}", 200, same(["GET", `/v1/payment-instructions/${f.instruction.id}`])],
    ["GET /v1/payment-instructions", 200, same(["GET", "/v1/payment-instructions"])],
    [
      "PATCH /v1/payment-instructions/{id}",
      200,
      same(["PATCH", `/v1/payment-instructions/${f.instruction.id}`, { label: "Main account" }]),
    ],
    [
      "DELETE /v1/payment-instructions/{id}",
      204,
      each(
        () => ok("POST", "/v1/payment-instructions", instructionBody),
        (p) => ["DELETE", `/v1/payment-instructions/${p.id}`],
      ),
    ],
    ["GET /v1/events", 200, same(["GET", "/v1/events"])],
    ["GET /v1/events/{id}", 200, same(["GET", `/v1/events/${f.event.id}`])],
    [
      // At most 16 destinations per environment: each is deleted again between requests.
      "POST /v1/event-destinations",
      201,
      async (n) =>
        Array.from({ length: n }, () => ["POST", "/v1/event-destinations", destinationBody, "delete"]),
    ],
    ["GET /v1/event-destinations/{id}", 200, same(["GET", dest("")])],
    ["GET /v1/event-destinations", 200, same(["GET", "/v1/event-destinations"])],
    ["PATCH /v1/event-destinations/{id}", 200, same(["PATCH", dest(""), { name: "Hooks" }])],
    [
      "DELETE /v1/event-destinations/{id}",
      204,
      async (n) =>
        Array.from({ length: n }, () => async () => {
          const d = await ok("POST", "/v1/event-destinations", destinationBody);
          return ["DELETE", `/v1/event-destinations/${d.id}`];
        }),
    ],
    ["POST /v1/event-destinations/{id}/disable", 200, same(["POST", dest("/disable"), {}])],
    ["POST /v1/event-destinations/{id}/enable", 200, same(["POST", dest("/enable"), {}])],
    ["POST /v1/event-destinations/{id}/rotate-secret", 200, same(["POST", dest("/rotate-secret"), {}])],
    ["GET /v1/event-destinations/{id}/attempts", 200, same(["GET", dest("/attempts")])],
    ["POST /v1/event-destinations/{id}/ping", 200, same(["POST", dest("/ping"), {}])],
    [
      "POST /v1/invoices (3 lines, IVA + IRPF)",
      201,
      same(["POST", "/v1/invoices", { customer: f.customer.id, lines: threeLines }]),
    ],
    [
      "POST /v1/invoices (draft)",
      201,
      same(["POST", "/v1/invoices", { draft: true, customer: f.customer.id, lines: threeLines }]),
    ],
    [
      "PATCH /v1/invoices/{id} (draft)",
      200,
      same(["PATCH", `/v1/invoices/${f.draft.id}`, { lines: threeLines }]),
    ],
    ["DELETE /v1/invoices/{id} (draft)", 200, each(newDraft, (d) => ["DELETE", `/v1/invoices/${d.id}`])],
    [
      "POST /v1/invoices/{id}/finalize",
      200,
      each(newDraft, (d) => ["POST", `/v1/invoices/${d.id}/finalize`, {}]),
    ],
    ["GET /v1/invoices/{id}", 200, same(["GET", invoice("")])],
    ["GET /v1/invoices", 200, same(["GET", "/v1/invoices"])],
    ["GET /v1/invoices?customer=", 200, same(["GET", `/v1/invoices?customer=${f.customer.id}`])],
    ["GET /v1/invoices?status=issued", 200, same(["GET", "/v1/invoices?status=issued"])],
    ["GET /v1/invoices?payment_status=unpaid", 200, same(["GET", "/v1/invoices?payment_status=unpaid"])],
    ["GET /v1/invoices?issue_date[gte]=", 200, same(["GET", "/v1/invoices?issue_date[gte]=2000-01-01"])],
    [
      "GET /v1/invoices?issue_date[gte]=&starting_after=",
      200,
      same(["GET", `/v1/invoices?issue_date[gte]=2000-01-01&starting_after=${f.dated.id}`]),
    ],
    ["GET /v1/invoices?overdue=true", 200, same(["GET", "/v1/invoices?overdue=true"])],
    ["GET /v1/invoices/{id}/pdf (stored)", 200, same(["GET", invoice("/pdf")])],
    ["GET /v1/invoices/{id}/ubl", 200, same(["GET", invoice("/ubl")])],
    ["GET /v1/invoices/{id}/facturae", 200, same(["GET", invoice("/facturae")])],
    ["GET /v1/invoices/{id}/verifactu-record (sealed)", 200, same(["GET", invoice("/verifactu-record")])],
    ["GET /v1/verifactu/status", 200, same(["GET", "/v1/verifactu/status"])],
    [
      "POST /v1/invoices/{id}/void",
      200,
      each(
        () => ok("POST", "/v1/invoices", { customer: f.customer.id, lines: threeLines }),
        (i) => ["POST", `/v1/invoices/${i.id}/void`, { reason: "Issued by mistake" }],
      ),
    ],
    [
      "POST /v1/invoices/{id}/payments",
      201,
      same(["POST", `/v1/invoices/${f.toPay.id}/payments`, { amount: "1.00" }]),
    ],
    ["GET /v1/payments/{id}", 200, same(["GET", `/v1/payments/${f.payment.id}`])],
    ["GET /v1/payments", 200, same(["GET", "/v1/payments"])],
    [
      "DELETE /v1/payments/{id}",
      200,
      each(
        () => ok("POST", `/v1/invoices/${f.toPay.id}/payments`, { amount: "1.00" }),
        (p) => ["DELETE", `/v1/payments/${p.id}`],
      ),
    ],
    ["GET /v1/tax-regimes/es (public, KV)", 200, same(["GET", "/v1/tax-regimes/es"])],
  ];
}

/**
 * CPU milliseconds of the isolate in `profile`: its non-idle samples times the sampling
 * interval. Not the samples' time deltas: a sample is taken only while the isolate is entered,
 * and its delta also spans the time since the previous one (other isolates on the thread, the
 * event loop, the OS running something else), which doubled the figure on this shared machine.
 * Checked on a Worker running a fixed loop: 47.7 ms a request by this count at 250 µs, 49.6 ms
 * for the same loop in Node (process.cpuUsage); 100 µs undercounts (the sampler falls behind,
 * -20 %), 1 ms overcounts (+19 %).
 */
function cpuMs(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  return (profile.samples.filter((s) => !idle.has(s)).length * INTERVAL_US) / 1000;
}

const server = await startServer({
  state: values.state,
  port: PORT,
  args: ["--api-only", "--inspector-port", String(INSPECTOR)],
});
const results = [];
try {
  const f = await fixtures();
  const session = await inspect(INSPECTOR);
  console.log(`profiling ${session.title}; ${N} requests per endpoint after ${WARM} warm-up`);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
  for (const [name, status, make] of cases(f)) {
    if (values.only && !values.only.split(",").includes(name)) continue;
    try {
      results.push(await measure(session, name, status, await make(N + WARM)));
    } catch (err) {
      await session.send("Profiler.stop");
      console.log(`${name.padEnd(52)} failed: ${String(err.message).slice(0, 160)}`);
      results.push({ endpoint: name, failed: String(err.message).slice(0, 300) });
    }
  }
  session.close();
} finally {
  server.stop();
}
if (values.json)
  writeFileSync(values.json, `${JSON.stringify({ n: N, intervalUs: INTERVAL_US, results }, null, 2)}\n`);

async function measure(session, name, status, requests) {
  let last;
  const send = async ([method, path, body, after]) => {
    const res = await call(method, path, body);
    if (res.status !== status) throw new Error(`${name}: ${res.status} ${res.text.slice(0, 300)}`);
    last = res;
    return after === "delete" ? res.json.id : null;
  };
  // Event destinations: at most 16 an environment, so they are made (a function: made just
  // before its chunk) and deleted again (`"delete"`) 15 at a time, outside the profile.
  const size = requests.some((r) => typeof r === "function" || r[3] === "delete") ? 15 : requests.length;
  const chunks = [];
  for (let i = 0; i < requests.length; i += size) chunks.push(requests.slice(i, i + size));
  let cpu = 0;
  let seen = 0;
  let started = 0;
  for (const chunk of chunks) {
    const ready = [];
    for (const r of chunk) ready.push(typeof r === "function" ? await r() : r);
    const warm = Math.max(0, Math.min(ready.length, WARM - seen));
    const ids = [];
    for (const r of ready.slice(0, warm)) ids.push(await send(r));
    if (ready.length > warm) {
      started ||= performance.now();
      await session.send("Profiler.start");
      for (const r of ready.slice(warm)) ids.push(await send(r));
      const { profile } = await session.send("Profiler.stop");
      cpu += cpuMs(profile);
    }
    seen += ready.length;
    for (const id of ids.filter(Boolean)) await ok("DELETE", `/v1/event-destinations/${id}`);
  }
  const measured = requests.slice(WARM);
  const h = (k) => last.headers.get(k) ?? "-";
  const row = {
    endpoint: name,
    cpuMsPerRequest: Number((cpu / measured.length).toFixed(2)),
    wallMsPerRequest: Number(((performance.now() - started) / measured.length).toFixed(1)),
    roundTrips: h("D1-Round-Trips"),
    rowsRead: h("D1-Rows-Read"),
    rowsWritten: h("D1-Rows-Written"),
  };
  console.log(
    `${name.padEnd(52)} cpu ${row.cpuMsPerRequest.toFixed(2).padStart(6)} ms  wall ${row.wallMsPerRequest.toFixed(1).padStart(6)} ms  rt ${row.roundTrips} read ${row.rowsRead} written ${row.rowsWritten}`,
  );
  return row;
}
