import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { accountEnvironments, invoices } from "../db/schema";
import { nowMs } from "../lib/clock";
import { requestSubmission } from "./dispatch";

/** Chains a run asks for, whatever the backlog. */
const SWEEP_LIMIT = 100;

/**
 * The cron sweep: asks again for each chain that has pending records and that nobody holds or
 * waits on (its message was lost, or its consumer died). Live chains only when the deployment
 * can send them (`canSendLive`: the AEAT certificate binding). Returns how many it asked for.
 */
export async function sweepPendingRecords(env: Env, canSendLive: boolean): Promise<number> {
  const db = createDb(env.DB);
  const i = invoices;
  const a = accountEnvironments;
  const chains = await db
    .selectDistinct({ accountId: i.accountId, live: i.live })
    .from(i)
    .innerJoin(a, and(eq(a.accountId, i.accountId), eq(a.live, i.live)))
    // The literal 'pending' (not a bound value) lets SQLite use the partial index.
    .where(
      and(
        sql`${i.verifactuStatus} = 'pending'`,
        canSendLive ? undefined : eq(i.live, false),
        or(isNull(a.verifactuNotBefore), lte(a.verifactuNotBefore, nowMs())),
      ),
    )
    .limit(SWEEP_LIMIT);
  await Promise.all(chains.map((scope) => requestSubmission(env, scope)));
  return chains.length;
}
