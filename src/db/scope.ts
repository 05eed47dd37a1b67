import { and, eq } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Caller } from "../contracts/caller";

type Owned = { accountId: SQLiteColumn; live: SQLiteColumn };

/**
 * The caller's slice of a table: its account and its key's environment. Rows outside it
 * do not exist for the caller (404 on retrieve, absent from lists, invalid as a cursor).
 */
export function ownedBy(table: Owned, caller: Caller) {
  return and(eq(table.accountId, caller.accountId), eq(table.live, caller.live));
}
