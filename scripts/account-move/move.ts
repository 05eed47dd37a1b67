/**
 * Moving an account between shards (docs/scaling.md), as steps over SQL: `moveAccount` runs
 * them in order, for `npm run account:move` through `wrangler d1 execute` and for the tests on
 * two local D1 bindings. Every step takes `sql`, which runs one statement on one database (a
 * binding name: a shard or `DIRECTORY`) and returns its rows.
 */

/** Runs one statement on one database and returns its rows. */
export type Sql = (database: string, statement: string) => Promise<Record<string, unknown>[]>;

/** SQL string literal (the CLI takes no bound parameters). */
const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Every table holding an account's rows, parents first (foreign keys), with the condition that
 * selects them. `omit`: columns the target gives anew: the account's `search_key` (its trigger
 * places the account's search range) and a customer's `seq` (its rowid; inserted in `seq`
 * order, the customers keep their order and the search index is rebuilt by its trigger).
 */
export function accountTables(accountId: string) {
  const account = lit(accountId);
  const own = `account_id = ${account}`;
  const destinations = `destination_id IN (SELECT id FROM event_destinations WHERE ${own})`;
  return [
    { table: "accounts", where: `id = ${account}`, omit: ["search_key"], keep: true },
    { table: "account_environments", where: own },
    { table: "write_budgets", where: own },
    { table: "tax_ids", where: own },
    { table: "customers", where: own, omit: ["seq"] },
    { table: "payment_instructions", where: own },
    { table: "account_default_payment_instructions", where: own },
    { table: "invoices", where: own },
    { table: "verifactu_records", where: own },
    { table: "payments", where: own },
    // Append-only (a trigger refuses deletes): the source keeps its copy, and so its account row.
    { table: "balance_transactions", where: own, keep: true },
    { table: "event_destinations", where: own },
    { table: "events", where: own },
    { table: "delivery_attempts", where: destinations },
    { table: "webhook_dead_letters", where: destinations },
    { table: "idempotency_keys", where: own },
  ] as { table: string; where: string; omit?: string[]; keep?: boolean }[];
}

/**
 * What the account's last writes left running on `shard`: the move waits until this is empty,
 * since the consumers would record their results on the shard the account is leaving.
 */
export async function inFlight(sql: Sql, shard: string, accountId: string): Promise<string[]> {
  const own = `account_id = ${lit(accountId)}`;
  const checks = {
    "Tax ID checks pending": `SELECT count(*) AS n FROM tax_ids WHERE ${own} AND verification_status = 'pending'`,
    "VERI*FACTU records pending": `SELECT count(*) AS n FROM verifactu_records WHERE ${own} AND status = 'pending'`,
    "PDFs not generated": `SELECT count(*) AS n FROM invoices WHERE ${own} AND pdf_generated_at IS NULL`,
    "events not dispatched": `SELECT count(*) AS n FROM events WHERE ${own} AND dispatched_at IS NULL`,
    "deliveries failed in the last 6 hours": `SELECT count(*) AS n FROM delivery_attempts WHERE outcome = 'failed' AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-6 hours') AND destination_id IN (SELECT id FROM event_destinations WHERE ${own})`,
  };
  const busy: string[] = [];
  for (const [what, statement] of Object.entries(checks)) {
    const [row] = await sql(shard, statement);
    if (Number(row?.n) > 0) busy.push(`${row?.n} ${what}`);
  }
  return busy;
}

/** A value as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return lit(String(value));
}

/** D1 caps a statement at 100 KB: INSERTs are cut well under it. */
const MAX_STATEMENT = 90_000;
/** Rows read per SELECT while copying. */
const PAGE = 200;

/**
 * Copies the account's rows from `from` to `to`, table by table in `rowid` order (so the
 * insert triggers' order checks pass, as they did on the source). Returns the rows copied per
 * table. Run on a target cleared of the account's rows (`clearTarget`): a plain INSERT, so a
 * row already there is an error, never silently kept. The two tables a clear keeps: the
 * `accounts` row is overwritten with the source's (an upsert: no delete, which its children
 * would refuse), and `balance_transactions` rows already there are left as they are (`OR
 * IGNORE`): the ledger is append-only and its rows never change, so they are the source's.
 */
export async function copyAccount(sql: Sql, from: string, to: string, accountId: string) {
  const copied: Record<string, number> = {};
  for (const { table, where, omit = [] } of accountTables(accountId)) {
    copied[table] = 0;
    for (let after = -1; ; ) {
      const rows = await sql(
        from,
        `SELECT rowid AS _rowid, * FROM ${table} WHERE ${where} AND rowid > ${after} ORDER BY rowid LIMIT ${PAGE}`,
      );
      if (rows.length === 0) break;
      after = Number(rows.at(-1)?._rowid);
      const columns = Object.keys(rows[0] as object).filter((c) => c !== "_rowid" && !omit.includes(c));
      const quoted = columns.map((c) => `"${c}"`);
      const verb = table === "balance_transactions" ? "INSERT OR IGNORE" : "INSERT";
      const head = `${verb} INTO ${table} (${quoted.join(", ")}) VALUES `;
      const tail =
        table === "accounts"
          ? ` ON CONFLICT (id) DO UPDATE SET ${quoted
              .filter((c) => c !== '"id"')
              .map((c) => `${c} = excluded.${c}`)
              .join(", ")}`
          : "";
      let values: string[] = [];
      let size = head.length + tail.length;
      const flush = async () => {
        if (values.length > 0) await sql(to, head + values.join(", ") + tail);
        values = [];
        size = head.length + tail.length;
      };
      for (const row of rows) {
        const tuple = `(${columns.map((c) => literal(row[c])).join(", ")})`;
        if (size + tuple.length + 2 > MAX_STATEMENT) await flush();
        values.push(tuple);
        size += tuple.length + 2;
      }
      await flush();
      copied[table] += rows.length;
    }
  }
  return copied;
}

/** The account's rows per table on `shard`. */
export async function countRows(sql: Sql, shard: string, accountId: string) {
  const counts: Record<string, number> = {};
  for (const { table, where } of accountTables(accountId)) {
    const [row] = await sql(shard, `SELECT count(*) AS n FROM ${table} WHERE ${where}`);
    counts[table] = Number(row?.n);
  }
  return counts;
}

/**
 * Deletes the account's rows from `shard`, children first, but what must stay (the ledger).
 * Its issued invoices and VERI*FACTU records are fiscal records that the database refuses to
 * delete (migration 0033) unless `fiscal_moves` names the account: that row, written first,
 * records that they live on `to` now (copied and counted; the directory already points there).
 */
export async function deleteAccount(sql: Sql, shard: string, accountId: string, to: string): Promise<void> {
  await sql(
    shard,
    `INSERT OR IGNORE INTO fiscal_moves (account_id, to_shard, moved_at) VALUES (${lit(accountId)}, ${lit(to)}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
  );
  for (const { table, where, keep } of accountTables(accountId).reverse()) {
    if (!keep) await sql(shard, `DELETE FROM ${table} WHERE ${where}`);
  }
}

/**
 * Deletes what an earlier run left of the account on `to` (a copy cut short, or the rows of a
 * move whose switch failed), so that the copy starts from nothing and no stale row survives it:
 * a row changed or deleted on the source since then would otherwise come back with the move.
 * The ledger and the account row stay (append-only; see `copyAccount`). Refused unless the
 * directory still places the account on `from`: the target must not be where it lives. Its
 * issued invoices and records there are copies of the ones on `from`, so `deleteAccount`'s
 * `fiscal_moves` row names `from`; `moveAccount` clears that row before it copies.
 */
export async function clearTarget(sql: Sql, from: string, to: string, accountId: string): Promise<void> {
  const place = await shardOf(sql, accountId);
  if (place !== from) throw new Error(`${accountId} is on ${place}, not ${from}: ${to} not cleared.`);
  await deleteAccount(sql, to, accountId, from);
}

/** Sets or clears the pause on the account's writes (the API answers them 503 `account_moving`). */
export async function setMoving(sql: Sql, accountId: string, moving: boolean): Promise<void> {
  await sql(
    "DIRECTORY",
    `UPDATE directory_accounts SET moving_since = ${moving ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" : "NULL"} WHERE account_id = ${lit(accountId)}`,
  );
}

/** Points the directory at the account's new shard and resumes its writes, in one statement. */
export async function switchShard(sql: Sql, accountId: string, to: string): Promise<void> {
  await sql(
    "DIRECTORY",
    `UPDATE directory_accounts SET shard = ${lit(to)}, moving_since = NULL WHERE account_id = ${lit(accountId)}`,
  );
}

/** The shard the directory places the account on, or undefined for an unknown account. */
export async function shardOf(sql: Sql, accountId: string): Promise<string | undefined> {
  const [row] = await sql(
    "DIRECTORY",
    `SELECT shard FROM directory_accounts WHERE account_id = ${lit(accountId)}`,
  );
  return row?.shard as string | undefined;
}

export type MoveResult =
  | { moved: true; from: string; copied: Record<string, number> }
  | { moved: false; reason: string };

/**
 * The whole move: 1. pauses the account's writes and waits (`waitForCaches`) until every
 * isolate's key cache has seen the pause; 2. refuses while background work is in flight on the
 * source (the pause is lifted again: run it later); 3. clears the target of what an earlier
 * run left there, then copies the rows, parents first (a copy cut short lifts the pause and
 * throws; run it again); 4. checks the counts table by table; 5. switches the directory,
 * which resumes writes; 6. deletes the rows from the old shard, except its append-only ledger.
 * A refusal leaves the account where it was, with its writes resumed.
 *
 * @example
 * const result = await moveAccount(sql, "acct_…", "DB_2", () => sleep(60_000));
 */
export async function moveAccount(
  sql: Sql,
  accountId: string,
  to: string,
  waitForCaches: () => Promise<void>,
): Promise<MoveResult> {
  const from = await shardOf(sql, accountId);
  if (from === undefined) return { moved: false, reason: `No account ${accountId} in the directory.` };
  if (from === to) return { moved: false, reason: `${accountId} is already on ${to}.` };

  await setMoving(sql, accountId, true);
  await waitForCaches();
  const busy = await inFlight(sql, from, accountId);
  if (busy.length > 0) {
    await setMoving(sql, accountId, false);
    return {
      moved: false,
      reason: `still in flight on ${from}: ${busy.join(", ")}; writes resumed, try again later.`,
    };
  }
  let copied: Record<string, number>;
  try {
    await clearTarget(sql, from, to, accountId);
    // An account moving back, or the rows a cut-short run left: its invoices are protected on
    // `to` again.
    await sql(to, `DELETE FROM fiscal_moves WHERE account_id = ${lit(accountId)}`);
    copied = await copyAccount(sql, from, to, accountId);
    const there = await countRows(sql, to, accountId);
    const mismatched = Object.keys(copied).filter((table) => there[table] !== copied[table]);
    if (mismatched.length > 0) {
      await setMoving(sql, accountId, false);
      return {
        moved: false,
        reason: `counts differ on ${to} for ${mismatched.join(", ")}; writes resumed on ${from}.`,
      };
    }
  } catch (error) {
    // Cut short before the switch: the account stays on `from`, its writes resume, and a run
    // again clears what this one copied.
    await setMoving(sql, accountId, false);
    throw error;
  }
  await switchShard(sql, accountId, to);
  await deleteAccount(sql, from, accountId, to);
  return { moved: true, from, copied };
}
