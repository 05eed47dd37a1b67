// CPU per invoice PDF render with the renderer the PDF Worker runs (src/pdf/render.ts), after
// warm-up renders, three rounds each, median reported (the wall clock is shown after it):
// - the README's sample invoice (test/fixtures/pdf-invoices.ts) N times, checked to give the
//   same bytes every time: the best case for the renderer's per-isolate caches;
// - N distinct invoices: the sample with its number, customer, line descriptions, amounts and
//   QR changed on every render, as a renderer Worker sees them in production;
// - in Node only, the wrapping worst case (200 lines of 1,000-character words, LONG_WORDS)
//   N / 10 times, and the isolate's first render (it also parses the fonts).
//
// In Node, "CPU" is the main thread's CPU time (process.threadCpuUsage: what a Worker's CPU
// limit counts, and steadier than the wall clock on a shared machine). With --workerd, the
// renderer Worker runs under `wrangler dev` (wrangler.pdf.toml, minified as deployed) and gets
// `POST /render` requests one at a time; "CPU" is then the workerd processes' CPU time
// (Linux /proc) per request, and "net" subtracts that of a request answered 404 (the HTTP path
// and wrangler's proxy Worker, which production does not have in this form).
//
//   npm run bench:pdf             # 30 renders a round (and 3 of the worst case)
//   npm run bench:pdf -- 100
//   npm run bench:pdf -- 100 --workerd
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Invoice } from "../src/invoices/schemas";
import { type PdfInput, renderInvoicePdf } from "../src/pdf/render";
import { LONG_WORDS, SPANISH } from "../test/fixtures/pdf-invoices";
import { FONTS } from "../test/tooling/pdf-fonts";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const WORKERD = args.includes("--workerd");
const ROUNDS = 3;

const CUSTOMERS = ["Almacenes", "Talleres", "Suministros", "Construcciones", "Hostelería", "Transportes"];
const WORDS = ["pedido", "obra", "albarán", "proyecto", "contrato", "expediente", "lote"];

/** The sample with what differs from one invoice to the next changed (`i` ≥ 1, so never the sample). */
function distinct(i: number): PdfInput {
  const cents = (amount: string, k: number) => (Number(amount) + (i * k) / 100).toFixed(2);
  const number = `INV-${String(1000 + i).padStart(5, "0")}`;
  const sample = SPANISH.invoice;
  const invoice: Invoice = {
    ...sample,
    number,
    customer: sample.customer && {
      ...sample.customer,
      name: `${CUSTOMERS[i % CUSTOMERS.length]} ${WORDS[i % WORDS.length]} Nº${i} S.L.`,
    },
    lines: sample.lines.map((line, k) => ({
      ...line,
      description: `${line.description}, ${WORDS[(i + k) % WORDS.length]} ${7000 + i * 3 + k}`,
      unit_price: cents(line.unit_price, k + 1),
      amount: cents(line.amount, k + 1),
    })),
    total: cents(sample.total, 7),
    amount_payable: cents(sample.amount_payable, 7),
    amount_remaining: cents(sample.amount_remaining, 7),
  };
  const qrUrl = SPANISH.qrUrl
    .replace("numserie=INV-0042", `numserie=${number}`)
    .replace(`importe=${sample.total}`, `importe=${invoice.total}`);
  return { ...SPANISH, invoice, qrUrl };
}

type Render = (input: PdfInput) => Promise<Uint8Array>;

// Main-thread CPU time in ms (Node ≥ 22.19; the whole process's before that).
const threadCpu = () => {
  const { user, system } =
    (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (user + system) / 1000;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Three rounds of `inputs(round)`: median CPU and wall ms per render. */
async function rounds(
  name: string,
  render: Render,
  cpu: () => number,
  inputs: (round: number) => PdfInput[],
  expect?: Uint8Array,
  floor = 0,
) {
  const times: number[] = [];
  const walls: number[] = [];
  let same = true;
  let bytes = 0;
  let count = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const list = inputs(round);
    const started = cpu();
    const wall = performance.now();
    for (const input of list) {
      const pdf = await render(input);
      bytes = pdf.length;
      if (expect) same &&= Buffer.from(pdf).equals(Buffer.from(expect));
    }
    times.push((cpu() - started) / list.length);
    walls.push((performance.now() - wall) / list.length);
    count = list.length;
  }
  const each = times.map((t) => t.toFixed(1)).join(" / ");
  const wallEach = walls.map((t) => t.toFixed(1)).join(" / ");
  const net = floor ? `, net ${(median(times) - floor).toFixed(1)} ms` : "";
  const check = expect ? `, identical: ${same}` : "";
  console.log(
    `${name}: ${count} renders a round, ${median(times).toFixed(1)} ms CPU each${net} (median of ${each}; wall ${median(walls).toFixed(1)} ms, of ${wallEach}), ${bytes} bytes${check}`,
  );
}

const sameEveryTime = () => Array(N).fill(SPANISH);
const distinctEveryTime = (round: number) => Array.from({ length: N }, (_, i) => distinct(1 + round * N + i));

async function inNode() {
  const render: Render = (input) => renderInvoicePdf(input, FONTS);
  const started = threadCpu();
  const first = await render(SPANISH);
  console.log(`first render of the isolate (fonts parsed): ${(threadCpu() - started).toFixed(1)} ms CPU`);
  await rounds("sample invoice, the same every time", render, threadCpu, sameEveryTime, first);
  await rounds("distinct invoices", render, threadCpu, distinctEveryTime);
  const again = await render(SPANISH);
  console.log(
    `sample invoice after the distinct ones, identical: ${Buffer.from(again).equals(Buffer.from(first))}`,
  );
  const long = Math.max(1, Math.round(N / 10));
  await rounds("200 lines of 1,000-character words", render, threadCpu, () => Array(long).fill(LONG_WORDS));
}

/** A port nothing listens on now (other benchmarks on this machine use fixed ones). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The pids of `pid`'s descendants named `name` (pgrep exits 1 when there are none). */
function descendants(pid: number, name: string): number[] {
  let children: string[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
  } catch {}
  return children.flatMap((child) => {
    const comm = readFileSync(`/proc/${child}/comm`, "utf8").trim();
    return [...(comm === name ? [Number(child)] : []), ...descendants(Number(child), name)];
  });
}

async function inWorkerd() {
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), "bench-pdf-"));
  const server = spawn(
    "wrangler",
    ["dev", "-c", "wrangler.pdf.toml", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state],
    { stdio: "ignore", detached: true },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        await fetch(`${url}/none`);
        break;
      } catch {
        if (i > 120) throw new Error("wrangler dev did not start");
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const pids = descendants(server.pid!, "workerd");
    const tick = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
    // utime + stime of every workerd process (wrangler's proxy and the Worker's), in ms.
    const cpu = () =>
      pids.reduce((sum, pid) => {
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return sum + (Number(fields[11]) + Number(fields[12])) * tick;
      }, 0);
    const render: Render = async (input) => {
      const res = await fetch(`${url}/render`, { method: "POST", body: JSON.stringify(input) });
      if (!res.ok) throw new Error(`render: ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    };
    const first = await render(SPANISH);
    for (let i = 0; i < 20; i++) await render(distinct(100_000 + i));
    const started = cpu();
    for (let i = 0; i < N; i++) await (await fetch(`${url}/none`)).arrayBuffer();
    const floor = (cpu() - started) / N;
    console.log(`workerd: a request answered 404 takes ${floor.toFixed(1)} ms CPU (the floor)`);
    await rounds("sample invoice, the same every time", render, cpu, sameEveryTime, first, floor);
    await rounds("distinct invoices", render, cpu, distinctEveryTime, undefined, floor);
  } finally {
    process.kill(-server.pid!, "SIGTERM");
    rmSync(state, { recursive: true, force: true });
  }
}

await (WORKERD ? inWorkerd() : inNode());
