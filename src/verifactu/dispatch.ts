import type { Scope } from "../events/write";
import { logError } from "../lib/log";

/**
 * Asks the consumer to work on a chain (after `delaySeconds`). Never throws: a lost message
 * leaves pending records that the cron sweep finds (sweep.ts).
 */
export async function requestSubmission(env: Env, scope: Scope, delaySeconds = 0): Promise<void> {
  try {
    await env.VERIFACTU_SUBMISSIONS.send(
      { account_id: scope.accountId, live: scope.live },
      delaySeconds > 0 ? { delaySeconds } : undefined,
    );
  } catch (err) {
    logError("verifactu_dispatch_error", err, { account_id: scope.accountId });
  }
}
