import { and, inArray, isNull } from "drizzle-orm";
import { createDb } from "../db/client";
import { taxIds } from "../db/schema";
import { nowIso } from "../lib/clock";
import { logError } from "../lib/log";
import type { VerificationMessage } from "./message";

/** Ids marked by one UPDATE: far under D1's 100 bound parameters. */
const GROUP = 50;

/**
 * The outbox step: puts the first registry check of each pending Tax ID on the queue, then
 * marks the ones sent (`verification_queued_at`). Each Tax ID is sent on its own, so a
 * failed send is logged by id and leaves only that one for the cron sweep; groups are sent
 * side by side and marked by one UPDATE. Failing to mark throws (D1 is down): the sweep then
 * sends them again, and the consumer ignores a check that is no longer pending.
 * Returns the ids queued.
 *
 * @example
 * await queueVerifications(env, ["txi_01JD…"]);
 */
export async function queueVerifications(env: Env, ids: readonly string[]): Promise<string[]> {
  const db = createDb(env.DB);
  const queued: string[] = [];
  for (let i = 0; i < ids.length; i += GROUP) {
    const sent = await Promise.all(
      ids.slice(i, i + GROUP).map(async (id) => {
        const message: VerificationMessage = { tax_id_id: id, attempt: 1 };
        try {
          await env.VERIFICATIONS.send(message);
          return id;
        } catch (err) {
          logError("verification_dispatch_error", err, { tax_id_id: id });
          return null;
        }
      }),
    );
    const ok = sent.filter((id): id is string => id !== null);
    if (ok.length === 0) continue;
    await db
      .update(taxIds)
      .set({ verificationQueuedAt: nowIso() })
      .where(and(inArray(taxIds.id, ok), isNull(taxIds.verificationQueuedAt)));
    queued.push(...ok);
  }
  return queued;
}
