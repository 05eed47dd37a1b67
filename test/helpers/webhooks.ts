import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type MockInstance, vi } from "vitest";
import jobs from "../../src/jobs";
import type { DeliveryMessage } from "../../src/webhooks/message";

/** One outbound request seen by the fetch mock. */
export type Call = { url: string; init: RequestInit; headers: Headers; body: string };

/**
 * Waits out the time in which a request that must NOT happen would arrive. Nothing
 * observable says "no request was sent", so a negative test first waits for a positive
 * control (a request that must happen, sent by the same dispatch), then this long: a wrong
 * implementation's request, in flight next to the control's, has arrived by then.
 *
 * @example
 * await expectCalls(control, 1);
 * await waitOutStrays();
 * expect(callsTo(disabled)).toEqual([]);
 */
export const waitOutStrays = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replaces outbound `fetch` (the consumer runs in this isolate). The body is read from
 * `init`: a Request made in the consumer's I/O context cannot be read from the test.
 */
export function captureFetch(
  respond: (call: Call) => Response | Promise<Response> = () => new Response("ok"),
) {
  const calls: Call[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init = {}) => {
    const call: Call = {
      url: input instanceof Request ? input.url : String(input),
      init,
      headers: new Headers(init.headers),
      body: init.body as string,
    };
    calls.push(call);
    return respond(call);
  });
  return { calls, spy };
}

/** When the event was put on the queue, or null while its dispatch has not run. */
export async function dispatchedAt(eventId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?")
    .bind(eventId)
    .first<{ dispatched_at: string | null }>();
  return row?.dispatched_at ?? null;
}

/** The destination's delivery log, oldest attempt first. */
export async function deliveryAttempts(destinationId: string) {
  const rows = await env.DB.prepare("SELECT * FROM delivery_attempts WHERE destination_id = ? ORDER BY id")
    .bind(destinationId)
    .all<Record<string, unknown>>();
  return rows.results;
}

/** The worker's queue handler with the runtime's full signature (it does not use `ctx`). */
const queueHandler = jobs.queue as NonNullable<ExportedHandler<Env, DeliveryMessage>["queue"]>;

/** The next attempts a consumer run queued, with their delays (held back from the real queue). */
export type Queued = { body: DeliveryMessage; delaySeconds: number | undefined };

/**
 * Runs the consumer of `queue` on one batch (ids m1, m2…), spying on every message's
 * `retry`: the test pool's result drops `delaySeconds`, the spy keeps it. What the consumer
 * queues (a receiver's next attempt) is returned in `sent` and not put on the real queue,
 * where it would reach a later test; a test may replace `env.WEBHOOKS.send` itself first.
 */
export async function runQueue(
  messages: { body: DeliveryMessage; attempts?: number }[],
  queue = "webhook-deliveries",
) {
  const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
  const send = vi.isMockFunction(producer.send)
    ? vi.mocked(producer.send)
    : vi.spyOn(producer, "send").mockResolvedValue({} as QueueSendResponse);
  const sentBefore = send.mock.calls.length;
  const batch = createMessageBatch<DeliveryMessage>(
    queue,
    messages.map((m, i) => ({
      id: `m${i + 1}`,
      timestamp: new Date(),
      attempts: m.attempts ?? 1,
      body: m.body,
    })),
  );
  const retries: MockInstance[] = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await queueHandler(batch, env, ctx);
  const result = await getQueueResult(batch, ctx);
  const sent: Queued[] = send.mock.calls
    .slice(sentBefore)
    .map(([body, options]) => ({ body, delaySeconds: options?.delaySeconds }));
  return { result, retries, sent };
}

/** The destination's dead letters (deliveries that will not be attempted again until re-driven). */
export async function deadLetters(destinationId: string) {
  const rows = await env.DB.prepare(
    "SELECT * FROM webhook_dead_letters WHERE destination_id = ? ORDER BY event_id",
  )
    .bind(destinationId)
    .all<Record<string, unknown>>();
  return rows.results;
}
