import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { accountEnvironments, verifactuRecords } from "../db/schema";
import { nowMs } from "../lib/clock";
import { requestSubmission } from "./dispatch";

/** Environments a run asks for, whatever the backlog. */
const SWEEP_LIMIT = 100;

/**
 * The cron sweep: asks again for each environment that has pending records and that nobody
 * holds or waits on (its message was lost, or its consumer died). Live ones only when the
 * deployment can send them (`canSendLive`: the AEAT certificate binding). Returns how many it
 * asked for.
 */
export async function sweepPendingRecords(env: Env, canSendLive: boolean): Promise<number> {
  const db = createDb(env.DB);
  const r = verifactuRecords;
  const a = accountEnvironments;
  const now = nowMs();
  const chains = await db
    .selectDistinct({ accountId: r.accountId, live: r.live })
    .from(r)
    .innerJoin(a, and(eq(a.accountId, r.accountId), eq(a.live, r.live)))
    // The literal 'pending' (not a bound value) lets SQLite use the partial index.
    .where(
      and(
        sql`${r.status} = 'pending'`,
        canSendLive ? undefined : eq(r.live, false),
        or(isNull(a.verifactuLeaseUntil), lte(a.verifactuLeaseUntil, now)),
        or(isNull(a.verifactuNotBefore), lte(a.verifactuNotBefore, now)),
      ),
    )
    .limit(SWEEP_LIMIT);
  await Promise.all(chains.map((scope) => requestSubmission(env, scope)));
  return chains.length;
}
