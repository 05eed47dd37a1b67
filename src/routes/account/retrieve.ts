import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type AccountEnvironmentRow, type AccountRow, accountEnvironments, accounts } from "../../db/schema";
import type { Caller } from "../../http/context";
import { notFound } from "../../http/errors";
import { route } from "../../http/route";
import { defaultsQuery } from "../../account/defaults";
import { accountObject } from "../../account/schemas";
import { serializeAccount } from "../../account/serialize";

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

export const retrieveAccount = route({
  method: "get",
  path: "/v1/account",
  tag: "Account",
  summary: "Retrieve the account",
  responses: {
    200: { description: "The account, as seen from the key's environment.", schema: accountObject },
  },
  handler: async (c) =>
    c.json(serializeAccount(await loadAccount(c.get("db"), c.get("caller")), c.get("caller").live)),
});
