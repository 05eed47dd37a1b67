import { and, eq } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { type AccountEnvironmentRow, type AccountRow, accountEnvironments, accounts } from "../db/schema";
import { notFound } from "../http/errors";
import { defaultsQuery } from "./defaults";

export type AccountState = {
  account: AccountRow;
  /** This environment's settings; null until something was set in it. */
  environment: AccountEnvironmentRow | null;
  defaults: string[];
};

/** The key's account with its environment's profile and default instructions: one round trip. */
export async function loadAccount(db: Database, caller: Caller): Promise<AccountState> {
  const [rows, environment, defaults] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, caller.accountId)).limit(1),
    db
      .select()
      .from(accountEnvironments)
      .where(
        and(eq(accountEnvironments.accountId, caller.accountId), eq(accountEnvironments.live, caller.live)),
      ),
    defaultsQuery(db, caller),
  ]);
  const account = rows[0];
  if (!account) throw notFound("account", caller.accountId);
  return { account, environment: environment[0] ?? null, defaults: defaults.map((d) => d.id) };
}
