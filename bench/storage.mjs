// Bytes on disk per table and per row, indexes included, of the database `npm run bench` left
// in bench/.state: the figures docs/scaling.md's capacity model starts from.
//
//   npm run bench -- --sizes 10000 && npm run bench:storage
//
// SQLite's dbstat (pages per table and index) read with node:sqlite, the same file format D1
// stores; the FTS5 shadow tables count towards `customers_fts`.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

const DIR = "bench/.state/v3/d1/miniflare-D1DatabaseObject";
const file = readdirSync(DIR).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
if (!file) throw new Error(`No database in ${DIR}: run npm run bench first.`);
const db = new DatabaseSync(join(DIR, file), { readOnly: true });

// Each index and shadow table belongs to the table it serves.
const owner = new Map(
  db
    .prepare("SELECT name, tbl_name FROM sqlite_schema")
    .all()
    .map((r) => [r.name, r.tbl_name]),
);
const ownerOf = (name) => {
  const table = owner.get(name) ?? name;
  return table.startsWith("customers_fts") ? "customers_fts" : table;
};
const bytes = new Map();
for (const { name, size } of db.prepare("SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name").all()) {
  const table = ownerOf(name);
  bytes.set(table, (bytes.get(table) ?? 0) + size);
}
const rows = (table) => {
  try {
    return Number(db.prepare(`SELECT count(*) AS n FROM "${table}"`).get().n);
  } catch {
    return 0;
  }
};
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: ${(total / 2 ** 20).toFixed(1)} MiB\n`);
console.log("| table (with its indexes) | rows | bytes | bytes per row |");
console.log("|---|---|---|---|");
for (const [table, size] of [...bytes].sort((a, b) => b[1] - a[1])) {
  if (size < 16_384) continue;
  const n = table === "customers_fts" ? rows("customers") : rows(table);
  console.log(`| ${table} | ${n} | ${size} | ${n ? Math.round(size / n) : "-"} |`);
}
