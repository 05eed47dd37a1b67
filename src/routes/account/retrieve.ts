import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { accounts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { defaultsQuery } from "./defaults";
import { serializeAccount } from "./serialize";

/** `GET /v1/account`: the key's account, in the key's environment. */
export async function retrieveAccount(c: Context<AppEnv>) {
  const db = c.get("db");
  const caller = c.get("caller");
  const [rows, defaults] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, caller.accountId)).limit(1),
    defaultsQuery(db, caller),
  ]);
  const row = rows[0];
  if (!row) throw notFound("account", caller.accountId);
  return c.json(
    serializeAccount(
      row,
      caller.live,
      defaults.map((d) => d.id),
    ),
  );
}
