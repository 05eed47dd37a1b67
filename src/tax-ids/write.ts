import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TaxIdOwnerType, TaxIdType } from "../constants";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type TaxIdRow, taxIds } from "../db/schema";
import type { Scope, Writer } from "../events/write";
import { queueVerifications } from "../verification/dispatch";
import { hasRegistry } from "../verification/route";
import type { newTaxIdColumns } from "./columns";

/** The inline columns of a Tax ID just created (`newTaxIdColumns`). */
export type NewTaxId = ReturnType<typeof newTaxIdColumns>;

/**
 * Whether a new Tax ID (its type and normalised value) gets a registry check in the caller's
 * environment: the registries' own rule (`hasRegistry`), which `newTaxIdColumns` asks.
 *
 * @example
 * const taxId = newTaxIdColumns(body.tax_id, verifiesFor(c.get("caller"), c.env));
 */
export function verifiesFor(caller: Caller, env: Env): (tax: { type: TaxIdType; value: string }) => boolean {
  return ({ type, value }) =>
    hasRegistry({ live: caller.live, taxRegime: caller.taxRegime, type, value, env });
}

/** The `tax_ids` row of a new Tax ID of `owner`: the source of truth its owner's inline columns copy. */
export function taxIdRow(
  taxId: NewTaxId,
  scope: Scope,
  owner: { type: TaxIdOwnerType; id: string },
): TaxIdRow {
  return {
    id: taxId.taxIdId,
    accountId: scope.accountId,
    live: scope.live,
    ownerType: owner.type,
    ownerId: owner.id,
    country: taxId.taxIdCountry,
    type: taxId.taxIdType,
    value: taxId.taxIdValue,
    createdAt: taxId.taxIdCreatedAt,
    verificationStatus: taxId.taxIdVerificationStatus,
    verificationValid: null,
    verificationCompletedAt: null,
    verifiedName: null,
    verifiedAddress: null,
    verificationQueuedAt: null,
    verificationSweptAt: null,
  };
}

const COLUMNS = Object.entries(getTableColumns(taxIds));

/**
 * The INSERT of a new Tax ID's row, for the batch that gives it to its owner. With `onlyIf`,
 * it is an INSERT … SELECT that writes the row only if `onlyIf.where` finds a row of
 * `onlyIf.table` at that point of the batch: put after the owner's UPDATE, "the owner now
 * holds this Tax ID", so a customer deleted before its PATCH lands leaves no Tax ID behind.
 *
 * @example
 * insertTaxId(db, row, { table: customers, where: and(eq(customers.id, id), eq(customers.taxIdId, row.id)) })
 */
export function insertTaxId(
  db: Database,
  row: TaxIdRow,
  onlyIf?: { table: SQLiteTable; where: SQL | undefined },
) {
  if (!onlyIf) return db.insert(taxIds).values(row).returning({ id: taxIds.id });
  // The table's own column order, which INSERT … SELECT follows. A null stays NULL (a boolean
  // column's mapping would make it 0).
  const fields = Object.fromEntries(
    COLUMNS.map(([key, column]) => {
      const value = row[key as keyof TaxIdRow];
      return [key, (value === null ? sql`NULL` : sql`${column.mapToDriverValue(value)}`).as(column.name)];
    }),
  ) as Record<keyof TaxIdRow, SQL.Aliased>;
  return db
    .insert(taxIds)
    .select(db.select(fields).from(onlyIf.table).where(onlyIf.where))
    .returning({ id: taxIds.id });
}

/**
 * After the write that created them has committed: puts the first check of each pending Tax
 * ID on the queue, kept alive past the response (`waitUntil`), with no further D1 write (the
 * consumer marks the check taken). If that never happens, the cron sweep sends it five
 * minutes later.
 *
 * @example
 * const { results } = await writeWithEvents(w, { insert, taxId: insertTaxId(db, row) }, …);
 * queueAfterWrite(w, results.taxId.length ? [row] : []);
 */
export function queueAfterWrite(
  w: Writer,
  rows: readonly Pick<TaxIdRow, "id" | "verificationStatus">[],
): void {
  const ids = rows.filter((row) => row.verificationStatus === "pending").map((row) => row.id);
  if (ids.length === 0) return;
  // Never rejects: each failed send is logged by its id.
  w.waitUntil(queueVerifications(w.env, ids));
}
