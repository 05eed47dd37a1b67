import type { VerificationMessage } from "../contracts/verification-message";
import { logError } from "../lib/log";

/**
 * The outbox step: puts the first registry check of each pending Tax ID on the queue, each on
 * its own, so a failed send is logged by id and leaves only that one for the cron sweep. No
 * D1 write: the consumer that takes a first check marks it (`take` in consumer.ts), and the sweep
 * re-sends the pending checks still unmarked after its grace period.
 * Returns the ids queued.
 *
 * @example
 * await queueVerifications(env, ["txi_01JD…"]);
 */
export async function queueVerifications(env: Env, ids: readonly string[]): Promise<string[]> {
  const sent = await Promise.all(
    ids.map(async (id) => {
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
  return sent.filter((id): id is string => id !== null);
}
