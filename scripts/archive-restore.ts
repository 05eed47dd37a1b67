// Restores an invoice from its archive (docs/operations.md#invoice-archive): reads its latest
// archived state from the ARCHIVE bucket, lists the folder's objects and, with --apply, inserts
// the invoice row and its VERI*FACTU records into the shard if the row is missing there:
//
//   npm run archive:restore -- --account acct_… --invoice inv_… [--test] [--shard DB]
//                              [--apply] [--remote | --persist-to DIR]
//
// Without --apply it only reads and reports. The steps are src/archive/restore.ts's.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { archiveFolder } from "../src/archive/keys";
import { restoreInvoice } from "../src/archive/restore";
// @ts-expect-error: a plain .mjs helper shared with the other scripts.
import { d1Execute, shell, WRANGLER, wranglerEnv } from "./lib.mjs";

const BUCKET = "invoicing-api-archive";

const { values } = parseArgs({
  options: {
    account: { type: "string" },
    invoice: { type: "string" },
    test: { type: "boolean", default: false },
    shard: { type: "string", default: "DB" },
    apply: { type: "boolean", default: false },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
const account = values.account ?? fail("--account acct_… is required.");
const invoice = values.invoice ?? fail("--invoice inv_… is required.");
if (!/^acct_[0-9A-Z]{26}$/.test(account)) fail("--account must be an account id (acct_…).");
if (!/^inv_[0-9A-Z]{26}$/.test(invoice)) fail("--invoice must be an invoice id (inv_…).");
if (!/^[A-Z][A-Z0-9_]*$/.test(values.shard)) fail("--shard must be a D1 binding name listed in SHARDS.");

const persist = values["persist-to"];
const where = values.remote ? ["--remote"] : ["--local", ...(persist ? ["--persist-to", persist] : [])];
/** One object's text, or null when wrangler finds none. */
const read = async (key: string): Promise<string | null> => {
  const run = spawnSync(WRANGLER, ["r2", "object", "get", `${BUCKET}/${key}`, "--pipe", ...where], {
    env: wranglerEnv,
    encoding: "utf8",
    shell,
    maxBuffer: 64 * 1024 * 1024,
  });
  return run.status === 0 ? run.stdout : null;
};
const target = { remote: values.remote, persistTo: persist, database: values.shard };
const sql = async (statement: string) =>
  (d1Execute(statement, target) as { results: Record<string, unknown>[] }[]).at(-1)?.results ?? [];

const folder = archiveFolder({ accountId: account, live: !values.test, id: invoice });
const result = await restoreInvoice(read, sql, folder, values.apply);
if ("reason" in result) fail(result.reason);
else {
  console.log(`${folder} (from ${result.from}, archived ${result.document.archived_at}):`);
  for (const name of result.objects) console.log(`  ${name}`);
  if (result.restored) console.log(`${invoice}: restored on ${values.shard}.`);
  else if (values.apply) console.log(`${invoice}: already on ${values.shard}, nothing written.`);
  else console.log(`${invoice}: read only (pass --apply to restore it where it is missing).`);
}
