import type { ShardStamp } from "./shard-stamp";

/**
 * The contract of the `tax-id-verifications` queue (and its dead-letter queue): one message
 * per registry attempt of one Tax ID's verification. The producers (`dispatch.ts`, the
 * consumer's next attempt) and the consumers (`consumer.ts`) import it from here.
 */
export type VerificationMessage = ShardStamp & {
  tax_id_id: string;
  /**
   * The registry attempt this message makes, from 1. It travels in the body, not in the
   * queue's `attempts`, which also counts our own failures: those retry the same message and
   * must not use up the registry's attempts.
   */
  attempt: number;
};

/** Whatever a message holds, whether it is one (a dead letter may be anything). */
export function isVerificationMessage(body: unknown): body is VerificationMessage {
  const b = body as Partial<VerificationMessage> | null;
  return typeof b?.tax_id_id === "string" && Number.isInteger(b.attempt) && (b.attempt as number) >= 1;
}

declare global {
  interface Env {
    /** The producer binding, typed with the message it carries. */
    VERIFICATIONS: Queue<VerificationMessage>;
  }
}
