// Load and cost benchmark of the API as `npm start` serves it, next to floors measured in
// the same run on the same server. See bench/README.md.
//
//   npm run bench                          # 10,000 and 100,000 customers, 10 s per scenario
//   npm run bench -- --sizes 10000 --duration 5
//   npm run bench -- --sizes 100000 --only "insert,POST /v1/customers"
//
// Everything runs on 127.0.0.1 against a server this script starts on its own state
// directory (bench/.state), so the dev database is untouched.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startServer } from "./server.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    port: { type: "string", default: "8788" },
    // Comma-separated substrings of scenario names, e.g. --only "insert,POST /v1/customers".
    only: { type: "string" },
    // No background Worker (queue consumers, cron): what the request path costs on its own.
    "without-jobs": { type: "boolean", default: false },
    // Issue 31's targets only: each API scenario next to its floor of the same work (FLOORS below).
    floors: { type: "boolean", default: false },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const BASE = `http://127.0.0.1:${values.port}`;
const STATE = "bench/.state";
const ACCOUNT = "acct_0000000000000000000000ES01";
const KEY = "sk_test_es_localdev";
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_AUTH = { ...AUTH, "content-type": "application/json" };

// D1 caps a statement at 100 KB, hence 200 rows per INSERT below.
// Names that make `q` realistic: a word matches about 1 in 40 customers.
const WORDS = ["acme", "iberia", "solar", "nova", "delta", "norte", "mar", "sierra", "vega", "atlas"];
const KINDS = ["servicios", "logistica", "consultores", "digital"];
const nameOf = (i) => `${WORDS[i % 10]} ${KINDS[Math.floor(i / 10) % 4]} ${i}`;

const crockford = (n, width) => {
  let out = "";
  for (let i = 0; i < width; i++, n = Math.floor(n / 32))
    out = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[n % 32] + out;
  return out;
};

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" },
    ...opts,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

/** Fresh state with `size` customers in the Spanish dev account (test environment). */
function seed(size) {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  run("node", ["scripts/start.mjs", "--persist-to", STATE, "--setup-only"]);
  const ids = [];
  const lines = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let start = 0; start < size; start += 200) {
    const rows = [];
    for (let i = start; i < Math.min(size, start + 200); i++) {
      // Ids in the service's format (Crockford base32), oldest first: 10 chars of time, 16 of sequence.
      const id = `cus_${crockford(t0 + i, 10)}${crockford(i, 16)}`;
      ids.push(id);
      const prefix = `B${i.toString(36).toUpperCase().padStart(6, "0")}`;
      const now = new Date(t0 + i).toISOString();
      rows.push(
        `('${id}','${ACCOUNT}',0,'${nameOf(i)}','${prefix}','txi_${id.slice(4)}','ES','local','L${i}','${now}','ES','${now}','${now}','billing${i}@example.com')`,
      );
    }
    lines.push(
      `INSERT INTO customers (id,account_id,live,name,invoice_prefix,tax_id_id,tax_id_country,tax_id_type,tax_id_value,tax_id_created_at,filter_country,created_at,updated_at,email) VALUES ${rows.join(",")};`,
    );
  }
  writeFileSync(`${STATE}/customers.sql`, lines.join("\n"));
  const t = Date.now();
  run(
    "node_modules/.bin/wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", STATE, "--file", `${STATE}/customers.sql`],
    { stdio: "ignore" },
  );
  console.log(`seeded ${size} customers in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return ids;
}

/** A random element of `list`, or a random integer below `list` when it is a number. */
const pick = (list) =>
  typeof list === "number" ? Math.floor(Math.random() * list) : list[Math.floor(Math.random() * list.length)];

/** One autocannon run (after a 2 s warm-up) and the D1 cost of one request of it. */
async function measure(name, floor, request, before) {
  await before?.();
  const load = loadavg()[0];
  const opts = { url: BASE, connections: CONNECTIONS, requests: [request] };
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: DURATION });
  const probe = request.setupRequest ? request.setupRequest({ ...request }) : request;
  const res = await fetch(BASE + probe.path, {
    method: probe.method ?? "GET",
    headers: probe.headers,
    body: probe.body,
  });
  if (!res.ok) throw new Error(`${name}: probe answered ${res.status}: ${await res.text()}`);
  const rowsRead = res.headers.get("d1-rows-read");
  const rowsWritten = res.headers.get("d1-rows-written");
  const roundTrips = res.headers.get("d1-round-trips");
  const row = {
    name,
    floor,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    rowsRead: rowsRead === null ? "-" : Number(rowsRead),
    rowsWritten: rowsWritten === null ? "-" : Number(rowsWritten),
    roundTrips: roundTrips === null ? "-" : Number(roundTrips),
    load: Number(load.toFixed(2)),
  };
  console.log(JSON.stringify(row));
  return row;
}

let counter = 0;
// Floors (null) are measured like any scenario; every other row names the floor it is read against.
const READ = "raw D1 read by id (floor)";
const INVOICE_READ = "raw D1 read of an invoice by id (floor)";
const INSERT = "raw D1 insert (floor)";
const READ_INSERT = "raw D1 read, then insert: two round trips (floor)";
const STATIC = "same bytes as the es catalog, static (floor)";
const scenarios = ({ ids, invoiceIds, customer }) => [
  ["static route (floor)", null, { path: "/health" }],
  [READ, null, { setupRequest: (r) => ({ ...r, path: `/__bench/d1-read/customers/${pick(ids)}` }) }],
  [
    "GET /v1/customers/{id}",
    READ,
    { headers: AUTH, setupRequest: (r) => ({ ...r, path: `/v1/customers/${pick(ids)}` }) },
  ],
  ["GET /v1/customers (first page)", READ, { headers: AUTH, path: "/v1/customers?limit=25" }],
  [
    "GET /v1/customers (page after a deep cursor)",
    READ,
    {
      headers: AUTH,
      setupRequest: (r) => ({ ...r, path: `/v1/customers?limit=25&starting_after=${pick(ids)}` }),
    },
  ],
  [
    "GET /v1/customers?q= common term, ~1 in 40 match (FTS5 trigram)",
    READ,
    {
      headers: AUTH,
      setupRequest: (r) => ({ ...r, path: `/v1/customers?q=${pick(WORDS)}%20${pick(KINDS)}` }),
    },
  ],
  [
    "same common-term search, LIKE scan",
    READ,
    {
      setupRequest: (r) => ({
        ...r,
        path: `/__bench/customers-like/${ACCOUNT}?q=${pick(WORDS)}%20${pick(KINDS)}`,
      }),
    },
  ],
  [
    "GET /v1/customers?q= one match (FTS5 trigram)",
    READ,
    { headers: AUTH, setupRequest: (r) => ({ ...r, path: `/v1/customers?q=billing${pick(ids.length)}%40` }) },
  ],
  [
    "same one-match search, LIKE scan",
    READ,
    {
      setupRequest: (r) => ({
        ...r,
        path: `/__bench/customers-like/${ACCOUNT}?q=billing${pick(ids.length)}%40`,
      }),
    },
  ],
  [INSERT, null, { method: "POST", path: `/__bench/d1-insert/${ACCOUNT}` }],
  [
    "POST /v1/customers",
    INSERT,
    {
      method: "POST",
      headers: JSON_AUTH,
      setupRequest: (r) => ({
        ...r,
        body: JSON.stringify({
          name: `Bench ${counter++}`,
          tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
        }),
      }),
      path: "/v1/customers",
    },
  ],
  [STATIC, null, { path: "/__bench/static-catalog" }],
  ["GET /v1/tax-regimes/es (KV)", STATIC, { path: "/v1/tax-regimes/es" }],
  [
    "POST /v1/payment-instructions",
    INSERT,
    {
      method: "POST",
      headers: JSON_AUTH,
      path: "/v1/payment-instructions",
      body: JSON.stringify({
        label: "Main",
        type: "bank_transfer",
        bank_transfer: { beneficiary: "Acme SL", iban: "ES9121000418450200051332" },
      }),
    },
  ],
  ["GET /v1/payment-instructions", READ, { headers: AUTH, path: "/v1/payment-instructions?limit=25" }],
  [
    "POST /v1/invoices (3 lines, IVA + IRPF, one series)",
    INSERT,
    { method: "POST", headers: JSON_AUTH, path: "/v1/invoices", body: JSON.stringify(invoiceBody(customer)) },
  ],
  [
    READ_INSERT,
    null,
    {
      method: "POST",
      setupRequest: (r) => ({ ...r, path: `/__bench/d1-read-insert/${ACCOUNT}/${pick(ids)}` }),
    },
  ],
  [
    "same POST /v1/invoices, against the two-round-trip floor",
    READ_INSERT,
    { method: "POST", headers: JSON_AUTH, path: "/v1/invoices", body: JSON.stringify(invoiceBody(customer)) },
  ],
  [
    INVOICE_READ,
    null,
    { setupRequest: (r) => ({ ...r, path: `/__bench/d1-read/invoices/${pick(invoiceIds)}` }) },
  ],
  [
    "GET /v1/invoices/{id}",
    INVOICE_READ,
    { headers: AUTH, setupRequest: (r) => ({ ...r, path: `/v1/invoices/${pick(invoiceIds)}` }) },
  ],
  ["GET /v1/invoices (first page)", INVOICE_READ, { headers: AUTH, path: "/v1/invoices?limit=25" }],
  [
    "GET /v1/invoices (page after a deep cursor)",
    INVOICE_READ,
    {
      headers: AUTH,
      setupRequest: (r) => ({ ...r, path: `/v1/invoices?limit=25&starting_after=${pick(invoiceIds)}` }),
    },
  ],
  [
    "GET /v1/invoices?customer= (first page)",
    INVOICE_READ,
    { headers: AUTH, path: `/v1/invoices?limit=25&customer=${customer}` },
  ],
  // The lifecycle filters (docs/invoices.md, "Listing and filtering").
  ...[
    "status=void",
    "payment_status=unpaid",
    "overdue=true",
    "overdue=false",
    `customer=${customer}&status=issued&payment_status=unpaid`,
    `issue_date[gte]=${daysAgo(30)}`,
    `issue_date[gte]=${daysAgo(400)}&issue_date[lte]=${daysAgo(370)}`,
  ].map((filter) => [
    `GET /v1/invoices?${filter.replace(customer, "…")} (first page)`,
    INVOICE_READ,
    { headers: AUTH, path: `/v1/invoices?limit=25&${filter}` },
  ]),
];

// Issue 31: each API scenario next to a floor of the same work, answered before the app with no
// framework (src/dev/floors.ts): the catalog's bytes as a constant, a raw read by id, and the
// write's own D1 batches replayed raw (recorded from one API request just before, fresh ids).
const F = {
  catalog: "floor: the es catalog's bytes, a constant",
  read: "floor: raw read of a customer by id",
  invoiceRead: "floor: raw read of an invoice by id",
  create: "floor: the create's outbox batch, raw, then its Tax ID check queued (the consumer writes)",
  issue: "floor: the issuance's read batch then write batch, raw",
};
const createBody = () =>
  JSON.stringify({
    name: `Bench ${counter++}`,
    tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
  });
/** Serves one API request with its D1 batches recorded as the floor `name` replays them. */
const recordFloor = (name, path, body) => async () => {
  const res = await fetch(BASE + path, {
    method: "POST",
    headers: { ...JSON_AUTH, "bench-record": name },
    body,
  });
  if (!res.ok) throw new Error(`recording ${name}: ${res.status} ${await res.text()}`);
};
/** The background work a write left (verifications, PDF renders, submissions) drains first. */
const settle = () => new Promise((r) => setTimeout(r, 10_000));
const FLOORS = ({ ids, invoiceIds, customer }) => [
  [F.catalog, null, { path: "/__bench/floor/catalog" }],
  ["GET /v1/tax-regimes/es", F.catalog, { path: "/v1/tax-regimes/es" }],
  [F.read, null, { setupRequest: (r) => ({ ...r, path: `/__bench/floor/read/customers/${pick(ids)}` }) }],
  [
    "GET /v1/customers/{id}",
    F.read,
    { headers: AUTH, setupRequest: (r) => ({ ...r, path: `/v1/customers/${pick(ids)}` }) },
  ],
  ["GET /v1/customers (first page)", F.read, { headers: AUTH, path: "/v1/customers?limit=25" }],
  [
    F.invoiceRead,
    null,
    { setupRequest: (r) => ({ ...r, path: `/__bench/floor/read/invoices/${pick(invoiceIds)}` }) },
  ],
  [
    "GET /v1/invoices/{id}",
    F.invoiceRead,
    { headers: AUTH, setupRequest: (r) => ({ ...r, path: `/v1/invoices/${pick(invoiceIds)}` }) },
  ],
  ["GET /v1/invoices (first page)", F.invoiceRead, { headers: AUTH, path: "/v1/invoices?limit=25" }],
  [
    F.create,
    null,
    { method: "POST", path: "/__bench/floor/replay/create" },
    recordFloor("create", "/v1/customers", createBody()),
  ],
  [
    "POST /v1/customers (Spanish NIF)",
    F.create,
    {
      method: "POST",
      headers: JSON_AUTH,
      path: "/v1/customers",
      setupRequest: (r) => ({ ...r, body: createBody() }),
    },
    settle,
  ],
  [
    F.issue,
    null,
    { method: "POST", path: "/__bench/floor/replay/issue" },
    async () => {
      await settle();
      await recordFloor("issue", "/v1/invoices", JSON.stringify(invoiceBody(customer)))();
    },
  ],
  [
    "POST /v1/invoices (3 lines, IVA + IRPF, one series)",
    F.issue,
    { method: "POST", headers: JSON_AUTH, path: "/v1/invoices", body: JSON.stringify(invoiceBody(customer)) },
    settle,
  ],
];

/** Seeded invoices issued per day (`seedInvoices`). */
const PER_DAY = 100;
const daysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The invoice the issue asks for: three lines, each with IVA general and IRPF professional. */
const invoiceBody = (customer) => ({
  customer,
  lines: ["Design", "Development", "Support"].map((description, i) => ({
    description,
    quantity: String(i + 1),
    unit_price: "120.50",
    taxes: [
      { tax: "iva", rule: "general" },
      { tax: "irpf", rule: "professional" },
    ],
  })),
});

async function api(method, path, body) {
  const res = await fetch(BASE + path, { method, headers: JSON_AUTH, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * `size` invoices to one customer with an address: one issued through the API, the rest
 * copies of it numbered after it (issuing 100,000 one by one would take the whole run).
 */
async function seedInvoices(size) {
  const customer = await api("POST", "/v1/customers", {
    name: "Cliente Bench SA",
    tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
    address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
  });
  // 100 invoices a day up to today: the template is issued as many days ago.
  const days = Math.ceil(size / PER_DAY);
  const issueDate = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  // The template is issued today (an es invoice cannot be issued before 2024-10-28); its copies
  // are dated from `start`.
  const template = await api("POST", "/v1/invoices", invoiceBody(customer.id));
  const t = Date.now();
  for (let from = 2; from <= size; from += 20000) {
    const to = Math.min(size, from + 19999);
    await api(
      "POST",
      // Issue 31's floors need no lifecycle: copies dated as their template, which the
      // issue-date-order trigger (migration 0009) accepts whatever today's date.
      `/__bench/clone-invoices/${template.id}?from=${from}&to=${to}${values.floors ? "" : `&per_day=${PER_DAY}&start=${issueDate}`}`,
    );
  }
  console.log(`seeded ${size} invoices in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const invoiceIds = [template.id];
  for (let i = 2; i <= size; i++) invoiceIds.push(template.id.slice(0, 14) + String(i).padStart(16, "0"));
  return { customer: customer.id, invoiceIds };
}

const results = {};
for (const size of SIZES) {
  const ids = seed(size);
  const server = await startServer({
    state: STATE,
    port: values.port,
    args: values["without-jobs"] ? ["--without-jobs"] : [],
  });
  try {
    results[size] = [];
    const wanted = values.only?.split(",") ?? [""];
    const invoices = await seedInvoices(size);
    for (const [name, floor, request, before] of (values.floors ? FLOORS : scenarios)({ ids, ...invoices })) {
      if (wanted.some((w) => name.includes(w)))
        results[size].push(await measure(name, floor, request, before));
    }
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1500));
  }
}

mkdirSync("bench/results", { recursive: true });
const file = `bench/results/${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`;
writeFileSync(
  file,
  JSON.stringify(
    {
      duration: DURATION,
      connections: CONNECTIONS,
      withoutJobs: values["without-jobs"],
      floors: values.floors,
      commit: spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim(),
      results,
    },
    null,
    2,
  ),
);

for (const size of SIZES) {
  const rows = results[size];
  console.log(`\n### ${size.toLocaleString("en")} customers, ${size.toLocaleString("en")} invoices\n`);
  console.log(
    "| scenario | req/s | p50 ms | p99 ms | D1 rows read / written, round trips | load | vs floor |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const floor = rows.find((f) => f.name === r.floor)?.rps;
    const ratio = r.floor === null ? "" : floor ? `${(r.rps / floor).toFixed(2)}×` : "n/a";
    const cost = r.rowsRead === "-" ? "-" : `${r.rowsRead} / ${r.rowsWritten}, ${r.roundTrips}`;
    console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${cost} | ${r.load} | ${ratio} |`);
  }
}
console.log(`\nraw results: ${file}`);
