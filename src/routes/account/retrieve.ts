import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { accounts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { serializeAccount } from "./serialize";

/** `GET /v1/account`: the key's account, in the key's environment. */
export async function retrieveAccount(c: Context<AppEnv>) {
  const db = c.get("db");
  const caller = c.get("caller");
  const [rows] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, caller.accountId)).limit(1),
  ]);
  const row = rows[0];
  if (!row) throw notFound("account", caller.accountId);
  // Default payment instructions arrive with payment instructions (PATCH /v1/account).
  return c.json(serializeAccount(row, caller.live, []));
}
