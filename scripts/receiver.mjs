// A webhook receiver for local development, and the reference for writing one:
// verify the signature on the raw body BEFORE parsing, reject stale timestamps, dedupe by
// event id, acknowledge fast, ignore event types you do not handle.
//
//   WEBHOOK_SECRET=whsec_… node scripts/receiver.mjs [port]     (default port 9099)
//
// Then create a destination with url http://127.0.0.1:9099/webhooks (allowed under
// `npm start` only). Each verified event is printed as one JSON line.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const TOLERANCE_SECONDS = 300;
const HANDLED = new Set(["customer.created", "customer.updated", "customer.deleted"]);
const seen = new Set(); // use a durable store in production

/**
 * True when some v1 signature of the header matches `t.body` and `t` is fresh. Whatever the
 * header holds, it returns false rather than throwing: a forged request must not crash you.
 */
export function verify(header, rawBody, key, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (typeof header !== "string") return false;
  const items = header.split(",").map((item) => item.trim().split("="));
  const ts = items.filter(([k]) => k === "t").map(([, v]) => v);
  const signatures = items.filter(([k, v]) => k === "v1" && v !== undefined).map(([, v]) => v);
  // Exactly one t: with two, which one was signed would be the sender's choice.
  if (ts.length !== 1 || !/^\d{1,15}$/.test(ts[0]) || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - Number(ts[0])) > TOLERANCE_SECONDS) return false;
  // The key is the whole secret string, `whsec_` included.
  const expected = Buffer.from(createHmac("sha256", key).update(`${ts[0]}.${rawBody}`).digest("hex"));
  // Several v1 values are sent while a secret is being rotated: any may match.
  return signatures.some((s) => {
    // Bytes, not characters: "é".repeat(64) is 128 bytes, and timingSafeEqual throws on
    // buffers of different lengths.
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error("Set WEBHOOK_SECRET to the destination's secret (whsec_…).");
    process.exit(2);
  }
  const port = Number(process.argv[2] ?? 9099);
  createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (!verify(req.headers["service-signature"], raw, secret)) {
        res.writeHead(400).end("bad signature");
        return;
      }
      const event = JSON.parse(raw); // only after the signature holds
      res.writeHead(200).end("ok"); // acknowledge first; do the work afterwards
      if (seen.has(event.id)) return; // at-least-once delivery: repeats are normal
      seen.add(event.id);
      if (!HANDLED.has(event.type)) return; // unknown types are ignored safely
      console.log(JSON.stringify({ received_at: new Date().toISOString(), ...event }));
    });
  }).listen(port, "127.0.0.1", () => console.error(`receiver on http://127.0.0.1:${port}/webhooks`));
}
