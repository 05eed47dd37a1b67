import { and, eq, inArray } from "drizzle-orm";
import type { Context } from "hono";
import { counted } from "../../db/client";
import { accountDefaultPaymentInstructions, accountEnvironments, paymentInstructions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { isForeignKeyViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import { isId } from "../../lib/ids";
import { route } from "../../lib/route";
import { ownedBy } from "../../lib/scope";
import { accountView } from "./retrieve";
import { accountObject, type UpdateAccountBody, updateAccountBody } from "./schemas";

const PARAM = "default_payment_instructions";

function noSuchInstruction(id: string, index: number): ApiError {
  return new ApiError("parameter_invalid", `No such payment instruction: '${id}'.`, {
    param: `${PARAM}.${index}`,
  });
}

/**
 * `default_payment_instructions` is an ordered list (first preferred) of the caller's
 * environment's instructions, without duplicates, at most ten. It replaces the previous list.
 */
export const updateAccount = route({
  method: "patch",
  path: "/v1/account",
  tag: "Account",
  summary: "Update the account",
  request: { json: updateAccountBody },
  responses: { 200: { description: "The updated account.", schema: accountObject } },
  handler: async (c, { json: body }) => c.json(await applyAccountUpdate(c, body)),
});

async function applyAccountUpdate(c: Context<AppEnv>, body: UpdateAccountBody) {
  const ids = body.default_payment_instructions;
  if (ids === undefined) return accountView(c);
  const db = c.get("db");
  const caller = c.get("caller");

  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (!isId("paymentInstruction", id)) throw noSuchInstruction(id, i);
    if (seen.has(id)) {
      throw new ApiError("parameter_invalid", `'${id}' appears more than once.`, { param: `${PARAM}.${i}` });
    }
    seen.add(id);
  });
  if (ids.length > 0) {
    const found = await counted(
      db,
      db
        .select({ id: paymentInstructions.id })
        .from(paymentInstructions)
        .where(and(inArray(paymentInstructions.id, ids), ownedBy(paymentInstructions, caller))),
    );
    const existing = new Set(found.map((r) => r.id));
    const missing = ids.findIndex((id) => !existing.has(id));
    if (missing !== -1) throw noSuchInstruction(ids[missing] as string, missing);
  }

  const table = accountDefaultPaymentInstructions;
  const clear = db
    .delete(table)
    .where(and(eq(table.accountId, caller.accountId), eq(table.live, caller.live)));
  // Only this environment's timestamp moves: the other environment sees no change.
  const now = nowIso();
  const touch = db
    .insert(accountEnvironments)
    .values({ accountId: caller.accountId, live: caller.live, updatedAt: now })
    .onConflictDoUpdate({
      target: [accountEnvironments.accountId, accountEnvironments.live],
      set: { updatedAt: now },
    });
  const rows = ids.map((id, position) => ({
    accountId: caller.accountId,
    live: caller.live,
    position,
    paymentInstructionId: id,
  }));
  try {
    // One batch is one transaction: the old list is never half replaced.
    await (rows.length > 0
      ? db.batch([clear, db.insert(table).values(rows), touch])
      : db.batch([clear, touch]));
  } catch (err) {
    // An instruction deleted between the check above and this write.
    if (isForeignKeyViolation(err))
      throw new ApiError("parameter_invalid", "A payment instruction no longer exists.", { param: PARAM });
    throw err;
  }
  return accountView(c);
}
