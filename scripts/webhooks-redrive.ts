// Re-drives dead-lettered webhook deliveries: the ones whose receiver failed all 5 attempts
// and the ones our own processing kept failing (recorded by the dead-letter queue consumer).
//
//   npm run webhooks:redrive -- --event evt_…         # every dead delivery of one event
//   npm run webhooks:redrive -- --destination ed_…    # every dead delivery to one destination
//   npm run webhooks:redrive -- --all                 # everything dead-lettered
//   … --shard DB_2                                    # on another shard (default DB)
//
// It marks them in D1 (local, or production with --remote); the Worker's cron then queues
// each one again within a minute, as a new delivery with 5 fresh attempts, and forgets it.
// A disabled destination keeps its dead letters until it is enabled again.
import { parseArgs } from "node:util";
import { redriveStatement } from "../src/webhooks/redrive";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { wrangler } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    event: { type: "string" },
    destination: { type: "string" },
    all: { type: "boolean", default: false },
    shard: { type: "string", default: "DB" },
    remote: { type: "boolean", default: false },
    // Local state kept somewhere else than wrangler's default (.wrangler/state).
    "persist-to": { type: "string" },
  },
});

let sql: string;
try {
  sql = redriveStatement(
    { event: values.event, destination: values.destination, all: values.all },
    new Date().toISOString(),
  );
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

const persist = values["persist-to"];
const target = values.remote ? ["--remote"] : ["--local", ...(persist ? ["--persist-to", persist] : [])];
const out = JSON.parse(
  wrangler(["d1", "execute", values.shard, ...target, "--json", "--command", sql], { capture: true }),
);
const marked = (out.at(-1)?.results ?? []) as { event_id: string; destination_id: string }[];
for (const { event_id, destination_id } of marked) console.log(`${event_id} → ${destination_id}`);
console.log(
  `${marked.length} dead-lettered ${marked.length === 1 ? "delivery" : "deliveries"} marked: the next cron run ` +
    "(each minute) queues them again with 5 fresh attempts.",
);
