/**
 * The contract of the `webhook-deliveries` queue (and its dead-letter queue): one message
 * per (event, destination). The producer (`fan-out.ts`) and the consumer (`consumer.ts`)
 * both import it from here.
 */
export type DeliveryMessage = { event_id: string; destination_id: string };

declare global {
  interface Env {
    /** The producer binding, typed with the message it carries. */
    WEBHOOKS: Queue<DeliveryMessage>;
  }
}
