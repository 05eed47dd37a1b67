import { and, eq, isNull } from "drizzle-orm";
import type { TaxIdType, TaxRegimeId } from "../constants";
import { isVerificationMessage, type VerificationMessage } from "../contracts/verification-message";
import { createDb, type Database } from "../db/client";
import { accounts, type TaxIdRow, taxIds } from "../db/schema";
import { consumerWriter } from "../events/writer";
import { nowIso } from "../lib/clock";
import { connectionSlots, type Slots } from "../lib/connections";
import { logError } from "../lib/log";
import { ownRetryDelay } from "../webhooks/config";
import { maxAttempts, retryDelayAfter } from "./config";
import type { Registry } from "./registry";
import { settleVerification } from "./settle";

/**
 * The registry that checks a Tax ID, or null when none applies (`registryFor` of
 * `src/verification/index.ts`). A parameter, so that tests can hand the consumer another.
 */
export type RegistryFor = (context: {
  live: boolean;
  taxRegime: TaxRegimeId;
  type: TaxIdType;
  env: Env;
}) => Registry | null;

type Loaded = { row: TaxIdRow; taxRegime: TaxRegimeId };

/** The Tax ID and its account's regime, which picks the registry. */
function load(db: Database, id: string) {
  return db
    .select({ row: taxIds, taxRegime: accounts.taxRegime })
    .from(taxIds)
    .innerJoin(accounts, eq(accounts.id, taxIds.accountId))
    .where(eq(taxIds.id, id))
    .limit(1);
}

/**
 * Loads the Tax ID of a check; for a first check, in the same round trip, marks it taken
 * (`verification_queued_at`, the outbox mark the request leaves to the consumer, which the
 * cron sweep looks for). A copy of a check taken already (the request's send and the sweep's
 * both arrived, or a message sent before the consumer kept the mark) is checked all the same:
 * the settle writes once, whichever copy gets there first.
 */
async function take(db: Database, message: Message<VerificationMessage>): Promise<Loaded | undefined> {
  const { tax_id_id: id, attempt } = message.body;
  if (attempt > 1) return (await load(db, id))[0];
  const [, [found]] = await db.batch([
    db
      .update(taxIds)
      .set({ verificationQueuedAt: nowIso() })
      .where(and(eq(taxIds.id, id), isNull(taxIds.verificationQueuedAt))),
    load(db, id),
  ]);
  return found;
}

/**
 * One registry attempt. A result completes the verification; an unavailable registry queues
 * the next attempt as a new message (its number in the body, after its delay) and acks this
 * one, until the last attempt fails it. A Tax ID gone, replaced or already settled: a
 * replaced one is still verified (it keeps its own verification), a settled one is left as
 * it is (a duplicate message). Any throw is our own failure, handled by the caller.
 */
async function verifyOne(
  message: Message<VerificationMessage>,
  env: Env,
  ctx: ExecutionContext,
  registryFor: RegistryFor,
  slots: Slots,
): Promise<void> {
  if (!isVerificationMessage(message.body)) {
    // Nothing to check, now or on a retry: said loudly, then dropped.
    logError("verification_malformed", null, { message_id: message.id });
    message.ack();
    return;
  }
  const db = createDb(env.DB);
  const { tax_id_id, attempt } = message.body;
  const found = await take(db, message);
  // Gone, or already settled (a duplicate message): nothing to do.
  if (found?.row.verificationStatus !== "pending") {
    message.ack();
    return;
  }
  const { row, taxRegime } = found;
  const w = consumerWriter(db, env, ctx, row, slots);
  // No registry applies any more (AEAT credentials removed since): it cannot be asked.
  const registry = registryFor({ live: row.live, taxRegime, type: row.type, env });
  const answer = registry
    ? await slots(() => registry.check({ country: row.country, type: row.type, value: row.value }, attempt))
    : null;
  if (answer?.kind === "result") {
    await settleVerification(w, row, {
      status: "completed",
      valid: answer.valid,
      name: answer.name,
      address: answer.address,
    });
  } else if (answer && attempt < maxAttempts(env)) {
    await env.VERIFICATIONS.send(
      { tax_id_id, attempt: attempt + 1 },
      { delaySeconds: retryDelayAfter(env, attempt) },
    );
  } else {
    await settleVerification(w, row, { status: "failed" });
  }
  message.ack();
}

/** Ids for a log line, whatever the body holds (`logError` redacts what is not id-shaped). */
function logIds(message: Message<unknown>) {
  const body = message.body as Partial<VerificationMessage> | null;
  return { message_id: message.id, tax_id_id: body?.tax_id_id };
}

/**
 * The `tax-id-verifications` consumer: a batch is checked concurrently, acked per message.
 * Our own failure (D1, the queue, a bug) retries the same message, so the same registry
 * attempt, with our own backoff; past the queue's `max_retries` it goes to the dead-letter
 * queue, whose consumer fails the verification.
 */
export async function verifyBatch(
  batch: MessageBatch<VerificationMessage>,
  env: Env,
  ctx: ExecutionContext,
  registryFor: RegistryFor,
): Promise<void> {
  const slots = connectionSlots();
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await verifyOne(message, env, ctx, registryFor, slots);
      } catch (err) {
        logError("verification_error", err, logIds(message));
        message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
      }
    }),
  );
}

/**
 * The dead-letter consumer: a check our own processing kept failing ends `failed`, with its
 * event, so that no verification stays pending forever. One that cannot be recorded is
 * retried (the DLQ's `max_retries`), never acked unrecorded.
 */
export async function failDeadVerifications(
  batch: MessageBatch<VerificationMessage>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const db = createDb(env.DB);
  const slots = connectionSlots();
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isVerificationMessage(message.body)) {
        // Nothing to fail: said loudly, then dropped.
        logError("verification_dead_letter_malformed", null, { message_id: message.id });
        message.ack();
        return;
      }
      try {
        const [found] = await load(db, message.body.tax_id_id);
        if (found?.row.verificationStatus === "pending") {
          await settleVerification(consumerWriter(db, env, ctx, found.row, slots), found.row, {
            status: "failed",
          });
        }
        message.ack();
      } catch (err) {
        logError("verification_dead_letter_error", err, logIds(message));
        message.retry({ delaySeconds: ownRetryDelay(message.attempts) });
      }
    }),
  );
}
