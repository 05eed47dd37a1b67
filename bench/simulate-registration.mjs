// Simulates VERI*FACTU registration under AEAT's flow control as src/verifactu/ implements it,
// to say how many invoices an hour one issuer NIF and one shard can register (issue 31 item 4;
// docs/scaling.md, "Registration under AEAT's flow control"). No server: a discrete-event model.
//
//   npm run bench:simulate                                   # the tables of docs/scaling.md
//   npm run bench:simulate -- --wait 60 --submit-batch 1000  # another batch rule
//
// The rules (verifactu-facts.md §6, Orden HAC/1177/2024 art. 16.2, SWEB §6.4.4.1), and what
// src/verifactu/submit.ts and consumer.ts do with them:
// - AEAT: at most 1,000 records a request; the next request once the last answer's
//   TiempoEsperaEnvio («t», 60 s as documented) has passed since the previous send, or sooner
//   if it carries 1,000 records. The model checks every simulated request against these.
// - ours: one sender per environment (= one issuer NIF: a NIF has one Live environment), by a
//   lease; a turn seals the unsealed records (up to 1,000), sends the oldest pending ones (1,000
//   when 1,000 wait, else at most SUBMIT_BATCH = 200), writes the verdicts with their events,
//   and releases with `notBefore = release + t`. Each issuance sends a queue message; a message
//   that finds the chain held or waiting comes back when it is free; the holder re-queues
//   itself after `t` (at once when 1,000 still wait).
// - the shard: one D1 database runs one query at a time, so every issuance, seal and settle of
//   every NIF on it queues on one server (FIFO here).
//
// Costs (ms) are the local measurements of bench/results/pipeline.md (a D1 on this 2-core
// machine, shared with the Workers' CPU): production D1 and AEAT will differ, so the model's
// point is the shape (where flow control binds, and when the backlog stops draining) and the
// orders of magnitude; rerun it with other costs.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    wait: { type: "string", default: "60" },
    "submit-batch": { type: "string", default: "200" },
    // AEAT's answer time: a base plus a time per record.
    "aeat-ms": { type: "string", default: "500" },
    "aeat-ms-per-record": { type: "string", default: "2" },
    // D1 time per issuance, per record sealed, per record settled (with its event).
    "issue-ms": { type: "string", default: "11" },
    "seal-ms": { type: "string", default: "1.5" },
    "settle-ms": { type: "string", default: "4" },
    // The queue's delivery of a message.
    "queue-ms": { type: "string", default: "50" },
    hours: { type: "string", default: "3" },
    seed: { type: "string", default: "31" },
  },
});
const P = {
  wait: Number(values.wait) * 1000,
  submitBatch: Number(values["submit-batch"]),
  aeatMs: Number(values["aeat-ms"]),
  aeatPerRecord: Number(values["aeat-ms-per-record"]),
  issueMs: Number(values["issue-ms"]),
  sealMs: Number(values["seal-ms"]),
  settleMs: Number(values["settle-ms"]),
  queueMs: Number(values["queue-ms"]),
  horizon: Number(values.hours) * 3_600_000,
};
const MAX = 1000; // records per request (SWEB §3; XSD maxOccurs)

/** A small deterministic PRNG (mulberry32), so every run of the model prints the same table. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A binary min-heap of [time, seq, fn]: the simulation's agenda. */
class Agenda {
  items = [];
  seq = 0;
  at(time, fn) {
    const item = [time, this.seq++, fn];
    const h = this.items;
    h.push(item);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (h[p][0] < item[0] || (h[p][0] === item[0] && h[p][1] < item[1])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }
  next() {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        for (const c of [l, r])
          if (c < h.length && (h[c][0] < h[m][0] || (h[c][0] === h[m][0] && h[c][1] < h[m][1]))) m = c;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * `nifs` issuers on one shard, each issuing Poisson arrivals at `perHour` invoices an hour.
 * Returns registration latencies (201 → verdict and event written) and the flow-control audit.
 */
export function simulate({
  nifs,
  perHour,
  submitBatch = P.submitBatch,
  seed = Number(values.seed),
  count = Number.POSITIVE_INFINITY,
  wait = P.wait,
}) {
  const random = rng(seed);
  const agenda = new Agenda();
  let now = 0;
  let d1FreeAt = 0;
  let d1Busy = 0;
  /** A D1 job of `ms`, FIFO on the shard's one database: resolves (calls back) when done. */
  const d1 = (ms, done) => {
    const start = Math.max(now, d1FreeAt);
    d1FreeAt = start + ms;
    d1Busy += ms;
    agenda.at(d1FreeAt, done);
  };
  const latencies = [];
  const audit = { requests: 0, records: 0, early: 0, tooMany: 0, concurrent: 0 };
  let offered = 0;
  let settled = 0;

  const issuers = Array.from({ length: nifs }, () => ({
    pending: [], // arrival times, oldest first
    unsealed: 0,
    held: false,
    notBefore: 0,
    lastSend: null,
    lastWait: 0,
    inFlight: 0,
    tries: new Set(), // queue messages already due at a time (one per second is enough)
    maxBacklog: 0,
  }));

  const tryAt = (issuer, time) => {
    const second = Math.ceil(time / 1000);
    if (issuer.tries.has(second)) return;
    issuer.tries.add(second);
    agenda.at(Math.max(time, now), () => {
      issuer.tries.delete(second);
      turn(issuer);
    });
  };

  function turn(issuer) {
    const full = issuer.pending.length >= MAX;
    if (issuer.held) return; // the holder looks again after its release
    if (now < issuer.notBefore && !full) return tryAt(issuer, issuer.notBefore);
    if (issuer.pending.length === 0) return;
    issuer.held = true;
    const toSeal = Math.min(issuer.unsealed, MAX);
    d1(P.sealMs * toSeal + 2, () => {
      issuer.unsealed -= toSeal;
      const n = issuer.pending.length >= MAX ? MAX : Math.min(issuer.pending.length, submitBatch);
      const batch = issuer.pending.splice(0, n);
      // AEAT's side of the request: the rules it states, checked.
      audit.requests++;
      audit.records += n;
      if (n > MAX) audit.tooMany++;
      if (issuer.inFlight > 0) audit.concurrent++;
      if (issuer.lastSend !== null && now - issuer.lastSend < issuer.lastWait && n < MAX) audit.early++;
      issuer.lastSend = now;
      issuer.inFlight++;
      agenda.at(now + P.aeatMs + P.aeatPerRecord * n, () => {
        issuer.inFlight--;
        issuer.lastWait = wait;
        d1(P.settleMs * n + 2, () => {
          settled += n;
          // A burst (`count`) is measured whole; a steady rate after its first sixth.
          const from = Number.isFinite(count) ? 0 : P.horizon / 6;
          for (const arrived of batch) if (arrived >= from) latencies.push(now - arrived);
          issuer.held = false;
          issuer.notBefore = now + wait;
          if (issuer.pending.length > 0) tryAt(issuer, issuer.pending.length >= MAX ? now : issuer.notBefore);
        });
      });
    });
  }

  // How much of what was issued is registered when the arrivals stop: ~100 % when the NIFs
  // keep up (less a backlog of at most 1,000 a NIF), falling when the shard's D1 cannot.
  let registeredByHorizon = 0;
  let offeredByHorizon = 0;
  agenda.at(P.horizon, () => {
    registeredByHorizon = settled;
    offeredByHorizon = offered;
  });
  const gap = () => (-Math.log(1 - random()) * 3_600_000) / perHour;
  for (const issuer of issuers) {
    const arrive = () => {
      if (now > P.horizon || offered >= count) return;
      offered++;
      d1(P.issueMs, () => {
        issuer.pending.push(now);
        issuer.unsealed++;
        issuer.maxBacklog = Math.max(issuer.maxBacklog, issuer.pending.length);
        tryAt(issuer, now + P.queueMs);
      });
      agenda.at(now + gap(), arrive);
    };
    agenda.at(Number.isFinite(count) ? 0 : gap(), arrive);
  }
  while (agenda.items.length > 0) {
    const [time, , fn] = agenda.next();
    if (time > P.horizon * 1.5) break;
    now = time;
    fn();
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    offered,
    registered: audit.records,
    p50: pct(0.5),
    p99: pct(0.99),
    max: latencies.at(-1) ?? NaN,
    requests: audit.requests,
    meanBatch: audit.records / audit.requests,
    keptUp: registeredByHorizon / offeredByHorizon,
    maxBacklog: Math.max(...issuers.map((i) => i.maxBacklog)),
    d1Utilisation: d1Busy / Math.max(now, 1),
    violations: audit.early + audit.tooMany + audit.concurrent,
  };
}

const s = (ms) => (Number.isNaN(ms) ? "-" : (ms / 1000).toFixed(1));
const row = (label, r) =>
  `| ${label} | ${s(r.p50)} | ${s(r.p99)} | ${s(r.max)} | ${r.meanBatch.toFixed(0)} | ${r.maxBacklog} | ${(100 * r.keptUp).toFixed(0)} % | ${(100 * r.d1Utilisation).toFixed(0)} % | ${r.violations} |`;
const HEAD =
  "| invoices an hour | registration p50 s | p99 s | max s | records a request | largest backlog | registered when issuance stops | shard D1 busy | flow-control violations |\n|---|---|---|---|---|---|---|---|---|";

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    `Model: t = ${P.wait / 1000} s, SUBMIT_BATCH ${P.submitBatch}, AEAT ${P.aeatMs} ms + ${P.aeatPerRecord} ms a record, D1 ${P.issueMs} ms an issuance + ${P.sealMs} ms a seal + ${P.settleMs} ms a settle a record, ${values.hours} h simulated (latencies after the first sixth).\n`,
  );
  console.log(`One issuer NIF, SUBMIT_BATCH ${P.submitBatch}:\n\n${HEAD}`);
  for (const perHour of [600, 6_000, 11_000, 12_000, 15_000, 30_000, 60_000, 120_000, 240_000])
    console.log(row(perHour.toLocaleString("en"), simulate({ nifs: 1, perHour })));
  const other = P.submitBatch === MAX ? 200 : MAX;
  console.log(
    `\nOne issuer NIF, SUBMIT_BATCH ${other} (everything waiting, up to 1,000, once t has passed):\n\n${HEAD}`,
  );
  for (const perHour of [600, 6_000, 11_000, 12_000, 15_000, 30_000, 60_000])
    console.log(row(perHour.toLocaleString("en"), simulate({ nifs: 1, perHour, submitBatch: other })));
  console.log(
    `\nA burst like bench:pipeline's: N invoices of one NIF issued at 14 a second, SUBMIT_BATCH ${P.submitBatch} (the measured runs are in bench/results/pipeline.md):\n\n| invoices | p50 s | p99 s | max s | requests |\n|---|---|---|---|---|`,
  );
  for (const count of [300, 1000, 3000, 10_000]) {
    const r = simulate({ nifs: 1, perHour: 14 * 3600, count });
    console.log(
      `| ${count.toLocaleString("en")} | ${s(r.p50)} | ${s(r.p99)} | ${s(r.max)} | ${r.requests} |`,
    );
  }
  console.log(
    `\nOne shard, 100 issuer NIFs issuing alike, SUBMIT_BATCH ${P.submitBatch} (the hour's total):\n\n${HEAD}`,
  );
  for (const total of [10_000, 50_000, 100_000, 150_000, 200_000, 250_000])
    console.log(row(total.toLocaleString("en"), simulate({ nifs: 100, perHour: total / 100 })));
}
