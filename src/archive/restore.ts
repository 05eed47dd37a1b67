import { type ArchivedInvoice, JSON_NAMES } from "./keys";

/** Reads one object of the archive as text, or null when it is not there. */
export type ArchiveReader = (key: string) => Promise<string | null>;
/** Runs one statement on the shard and returns its rows (as `wrangler d1 execute` does). */
export type ShardSql = (statement: string) => Promise<Record<string, unknown>[]>;

const lit = (value: unknown): string => {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replaceAll("'", "''")}'`;
};

const insert = (table: string, row: Record<string, unknown>) => {
  const columns = Object.keys(row);
  return `INSERT OR IGNORE INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => lit(row[c])).join(", ")})`;
};

export type RestoreResult =
  | { restored: boolean; from: string; objects: string[]; document: ArchivedInvoice }
  | { restored: false; reason: string };

/**
 * Disaster recovery of one invoice (docs/operations.md): reads its latest archived state from
 * `folder` (`invoice-void.json`, else `invoice.json`) and, if the shard has no row for it,
 * inserts the row and its VERI*FACTU records as the archive stored them. `apply` false only
 * reads and reports. Its account and customer must be on the shard (the archive holds
 * invoices, not them), and the insert triggers still hold: a series' invoices go back oldest
 * first. A restored invoice's `archived_at` is cleared: the sweep checks its folder again.
 *
 * @example
 * await restoreInvoice(readR2, sqlOnShard, "archive/acct_…/live/inv_…/", true)
 */
export async function restoreInvoice(
  read: ArchiveReader,
  sql: ShardSql,
  folder: string,
  apply: boolean,
): Promise<RestoreResult> {
  for (const name of JSON_NAMES) {
    const text = await read(folder + name);
    if (text === null) continue;
    const document = JSON.parse(text) as ArchivedInvoice;
    const { invoice, verifactu_records } = document.rows;
    const objects = [name, ...document.objects];
    const [present] = await sql(`SELECT id FROM invoices WHERE id = ${lit(invoice.id)}`);
    if (present || !apply) return { restored: false, from: name, objects, document };
    await sql(insert("invoices", { ...invoice, archived_at: null }));
    for (const record of verifactu_records) await sql(insert("verifactu_records", record));
    const [back] = await sql(`SELECT id FROM invoices WHERE id = ${lit(invoice.id)}`);
    return { restored: back !== undefined, from: name, objects, document };
  }
  return { restored: false, reason: `Nothing archived under ${folder}.` };
}
