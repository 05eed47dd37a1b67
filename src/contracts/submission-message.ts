import type { ShardStamp } from "./shard-stamp";

export const VERIFACTU_QUEUE = "verifactu-submissions";

/**
 * The contract of the `verifactu-submissions` queue: "this chain may have records to seal and
 * send". One per issued `es` invoice, per follow-up and per sweep find; the consumer works on
 * the whole chain, so duplicates cost a read and nothing else.
 */
export type SubmissionMessage = ShardStamp & { account_id: string; live: boolean };

export function isSubmissionMessage(body: unknown): body is SubmissionMessage {
  const b = body as Partial<SubmissionMessage> | null;
  return typeof b?.account_id === "string" && typeof b.live === "boolean";
}

declare global {
  interface Env {
    /** The producer binding, typed with the message it carries. */
    VERIFACTU_SUBMISSIONS: Queue<SubmissionMessage>;
  }
}
