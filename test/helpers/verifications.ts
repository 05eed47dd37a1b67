/**
 * Tax ID verification as the tests drive it. In the tests the VERIFICATIONS producer leads to a
 * queue without a consumer (vitest.config.ts): a test captures what the app sends and runs the
 * worker's own queue handler on it, round after round, as the real queue would after each delay.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, type MockInstance, vi } from "vitest";
import type { VerificationMessage } from "../../src/contracts/verification-message";
import jobs from "../../src/jobs";
import { nowMs } from "../../src/lib/clock";
import { afterResponses } from "./after-response";

/** A message the app put on the verifications queue, with its delay. */
export type SentCheck = { body: VerificationMessage; delaySeconds: number | undefined };

/**
 * From now on, every message sent to the verifications queue (the request's first check, the
 * consumer's next attempt, the sweep's) is kept in `sent` instead of being queued; `fail`
 * makes the send of a Tax ID's checks throw, as a queue outage would.
 *
 * @example
 * const checks = captureChecks();
 * await api.post("/v1/customers", body);
 * await afterResponses();
 * expect(checks.sent).toEqual([{ body: { tax_id_id, attempt: 1 }, delaySeconds: undefined }]);
 */
export function captureChecks(options: { fail?: (taxIdId: string) => boolean } = {}) {
  const sent: SentCheck[] = [];
  const producer = env.VERIFICATIONS as Queue<VerificationMessage>;
  const spy = vi.spyOn(producer, "send").mockImplementation(async (body, sendOptions) => {
    if (options.fail?.(body.tax_id_id)) throw new Error("queue unavailable");
    sent.push({ body, delaySeconds: sendOptions?.delaySeconds });
    return {} as QueueSendResponse;
  });
  return { sent, spy };
}

export type Checks = ReturnType<typeof captureChecks>;

/** The worker's queue handler with the runtime's full signature. */
const queueHandler = jobs.queue as NonNullable<ExportedHandler<Env, VerificationMessage>["queue"]>;

/**
 * Runs the consumer of `queue` on one batch (ids m1, m2…), waiting for what it left running
 * (an event's fan-out), with every message's `retry` spied on: the test pool's result drops
 * `delaySeconds`, the spy keeps it.
 *
 * @example
 * const { result, retries } = await runChecks([{ body: { tax_id_id, attempt: 1 } }]);
 */
export async function runChecks(
  messages: { body: unknown; attempts?: number }[],
  queue = "tax-id-verifications",
) {
  const batch = createMessageBatch<VerificationMessage>(
    queue,
    messages.map((m, i) => ({
      id: `m${i + 1}`,
      timestamp: new Date(),
      attempts: m.attempts ?? 1,
      body: m.body as VerificationMessage,
    })),
  );
  const retries: MockInstance[] = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await queueHandler(batch, env, ctx);
  const result = await getQueueResult(batch, ctx);
  return { result, retries };
}

/**
 * Plays the queue: waits for the first checks, then runs every captured message through the
 * consumer, and the next attempts those queue, until none is left. Returns every message run,
 * in order (what the queue would have delivered, each after its `delaySeconds`).
 *
 * @example
 * const checks = captureChecks();
 * const customer = await createCustomer(api, { tax_id: { country: "ES", type: "eu_vat", value: "ES00000000T" } });
 * expect((await playChecks(checks)).map((m) => m.body.attempt)).toEqual([1, 2, 3, 4, 5]);
 */
export async function playChecks(checks: Checks): Promise<SentCheck[]> {
  await afterResponses();
  const played: SentCheck[] = [];
  while (checks.sent.length > 0) {
    const round = checks.sent.splice(0);
    played.push(...round);
    const { result } = await runChecks(round.map((m) => ({ body: m.body })));
    expect(result.retryMessages, "a check failed on our side").toEqual([]);
  }
  return played;
}

/** Runs the cron (`scheduled`) at the app's current time, as every minute in production. */
export async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  await jobs.scheduled(createScheduledController({ scheduledTime: nowMs(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The `tax_ids` row as stored, outbox mark included (the API does not show it). */
export async function storedTaxId(id: string) {
  return env.DB.prepare("SELECT * FROM tax_ids WHERE id = ?").bind(id).first<Record<string, unknown>>();
}
