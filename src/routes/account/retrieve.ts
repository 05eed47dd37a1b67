import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { accountEnvironments, accounts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { route } from "../../lib/route";
import { defaultsQuery } from "./defaults";
import { accountObject } from "./schemas";
import { serializeAccount } from "./serialize";

/** The key's account, in the key's environment. */
export async function accountView(c: Context<AppEnv>) {
  const db = c.get("db");
  const caller = c.get("caller");
  const [rows, environment, defaults] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, caller.accountId)).limit(1),
    db
      .select({ updatedAt: accountEnvironments.updatedAt })
      .from(accountEnvironments)
      .where(
        and(eq(accountEnvironments.accountId, caller.accountId), eq(accountEnvironments.live, caller.live)),
      ),
    defaultsQuery(db, caller),
  ]);
  const row = rows[0];
  if (!row) throw notFound("account", caller.accountId);
  // The later of an account-wide change and a change of this environment's settings.
  const envUpdatedAt = environment[0]?.updatedAt;
  const updatedAt = envUpdatedAt && envUpdatedAt > row.updatedAt ? envUpdatedAt : row.updatedAt;
  return serializeAccount(
    { ...row, updatedAt },
    caller.live,
    defaults.map((d) => d.id),
  );
}

export const retrieveAccount = route({
  method: "get",
  path: "/v1/account",
  tag: "Account",
  summary: "Retrieve the account",
  responses: {
    200: { description: "The account, as seen from the key's environment.", schema: accountObject },
  },
  handler: async (c) => c.json(await accountView(c)),
});
