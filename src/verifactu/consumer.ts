import { isSubmissionMessage } from "../contracts/submission-message";
import { createDb } from "../db/client";
import { consumerWriter } from "../events/writer";
import { connectionSlots } from "../lib/connections";
import { logError } from "../lib/log";
import { requestSubmission } from "./dispatch";
import type { RecordRegistry } from "./registry";
import { processChain } from "./submit";

/** The registry of an environment (index.ts), a parameter so tests can hand another. */
export type RecordRegistryFor = (env: Env, live: boolean) => RecordRegistry | null;

/**
 * The `verifactu-submissions` consumer: one turn per chain named in the batch. A chain that
 * needs another turn gets a new, delayed message (flow control is not a failure, so it does
 * not spend the queue's retries); our own failure retries the message.
 */
export async function handleSubmissions(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
  registryFor: RecordRegistryFor,
): Promise<void> {
  const db = createDb(env.DB);
  const slots = connectionSlots();
  const seen = new Set<string>();
  for (const message of batch.messages) {
    const body = message.body;
    if (!isSubmissionMessage(body)) {
      logError("verifactu_message_invalid", new Error("not a submission message"), {});
      message.ack();
      continue;
    }
    const key = `${body.account_id}:${body.live}`;
    if (seen.has(key)) {
      message.ack();
      continue;
    }
    seen.add(key);
    const scope = { accountId: body.account_id, live: body.live };
    const w = consumerWriter(db, env, ctx, scope, slots);
    try {
      const result = await processChain(w, registryFor(env, body.live));
      if (result.kind === "later") await requestSubmission(env, scope, result.delaySeconds);
      message.ack();
    } catch (err) {
      logError("verifactu_consumer_error", err, { account_id: body.account_id });
      message.retry({ delaySeconds: 30 });
    }
  }
}
