import type { ShardStamp } from "./shard-stamp";

/**
 * The contract of the `webhook-deliveries` queue (and its dead-letter queue): one message
 * per (event, destination) and receiver attempt. The producers (`fan-out.ts`, `redrive.ts`,
 * the consumer's next attempt) and the consumers (`consumer.ts`) import it from here.
 */
export type DeliveryMessage = ShardStamp & {
  event_id: string;
  destination_id: string;
  /**
   * The receiver's attempt this message makes, 1 to 5. It travels in the body, not in the
   * queue's `attempts`, which also counts our own failures: those retry the same message and
   * must not use up the receiver's attempts. Absent on messages queued before it existed.
   */
  attempt?: number;
  /**
   * Set by a fan-out, which puts every subscribed destination's message on the queue at once,
   * and on the retries of a write's first attempts, made once every destination had its first:
   * the consumer that takes one marks the event dispatched. A resend, a next attempt or a
   * re-drive names one destination only, so it marks nothing (a resend of an event whose
   * fan-out was cut short must not stop the sweep from reaching the others). Absent on
   * messages queued before it existed: those mark nothing, and the sweep may send their
   * event once more.
   */
  fan_out?: true;
};

declare global {
  interface Env {
    /** The producer binding, typed with the message it carries. */
    WEBHOOKS: Queue<DeliveryMessage>;
  }
}
