import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, beforeEach, expect, type MockInstance, vi } from "vitest";
import type { DeliveryMessage } from "../../src/contracts/delivery-message";
import * as schema from "../../src/db/schema";
import type { DeliveryAttempt } from "../../src/event-destinations/schemas";
import jobs from "../../src/jobs";
import { nowIso } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { type ApiClient, client, expectStatus } from "./api";
import { createAccount, type TestAccount } from "./factories";
import type { List } from "./types";

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

/**
 * The next attempts a consumer run queued (`sent`), and the messages the circuit breaker put
 * back on the queue without an attempt (`held`), with their delays (kept off the real queue).
 */
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
  // Messages the circuit breaker holds go back on the queue in one sendBatch.
  const sendBatch = vi.isMockFunction(producer.sendBatch)
    ? vi.mocked(producer.sendBatch)
    : vi.spyOn(producer, "sendBatch").mockResolvedValue({} as QueueSendBatchResponse);
  const sentBefore = send.mock.calls.length;
  const batchesBefore = sendBatch.mock.calls.length;
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
  const held: Queued[] = sendBatch.mock.calls
    .slice(batchesBefore)
    .flatMap(([messages]) => [...messages].map((m) => ({ body: m.body, delaySeconds: m.delaySeconds })));
  return { result, retries, sent, held };
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

/**
 * The requests sent to `url` so far, once there are at least `count` (the real queue delivers
 * in the background); fails after 5 seconds.
 *
 * @example
 * const [call] = await expectCallsTo(calls, dest.url, 1);
 */
export async function expectCallsTo(calls: Call[], url: string, count: number): Promise<Call[]> {
  await vi.waitFor(() => expect(calls.filter((c) => c.url === url).length).toBeGreaterThanOrEqual(count), {
    timeout: 5000,
    interval: 10,
  });
  return calls.filter((c) => c.url === url);
}

/**
 * Waits until the destination's delivery log holds `count` rows (a delivery's attempt is
 * recorded just after its request), and returns them oldest first.
 */
export async function expectAttemptRows(destinationId: string, count: number) {
  await vi.waitFor(async () => expect(await deliveryAttempts(destinationId)).toHaveLength(count), {
    timeout: 5000,
    interval: 10,
  });
  return deliveryAttempts(destinationId);
}

type AttemptRow = typeof schema.deliveryAttempts.$inferInsert;

/**
 * Inserts `count` delivery-log rows for the destination straight into D1, for volume tests:
 * row `i` is `row(i)` over a failed attempt 1 of `eventId`. Returns their ids, oldest first.
 *
 * @example
 * await insertAttempts(dest.id, 3_000, (i) => ({ outcome: i % 5 ? "failed" : "exhausted" }));
 */
export async function insertAttempts(
  destinationId: string,
  count: number,
  row: (i: number) => Partial<AttemptRow> = () => ({}),
): Promise<string[]> {
  const db = drizzle(env.DB);
  const eventId = newId("event");
  const rows: AttemptRow[] = Array.from({ length: count }, (_, i) => ({
    id: newId("deliveryAttempt"),
    eventId,
    destinationId,
    attempt: 1,
    outcome: "failed",
    statusCode: 500,
    durationMs: 12,
    error: "HTTP 500",
    createdAt: nowIso(),
    ...row(i),
  }));
  // Nine columns: eleven rows to a statement stay under D1's 100 bound parameters.
  const statements = [];
  for (let i = 0; i < rows.length; i += 11) {
    statements.push(db.insert(schema.deliveryAttempts).values(rows.slice(i, i + 11)));
  }
  for (let i = 0; i < statements.length; i += 50) {
    const [head, ...rest] = statements.slice(i, i + 50);
    if (head) await db.batch([head, ...rest]);
  }
  return rows.map((r) => r.id);
}

/**
 * Lets attempt-1 messages through to the real queue (a fan-out's, a ping's, a resend's) and
 * holds back every later attempt the consumer queues after a failure (a minute or more later on
 * the real queue, where it would reach a later test). Returns the held messages with their delays.
 *
 * @example
 * const retries = holdRetries();
 * await api.post(`/v1/event-destinations/${dest.id}/ping`); // the receiver answers 500
 * await vi.waitFor(() => expect(retries).toHaveLength(1));
 */
export function holdRetries(): Queued[] {
  const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
  const send = producer.send.bind(producer);
  const held: Queued[] = [];
  vi.spyOn(producer, "send").mockImplementation(async (body, options) => {
    if (body.attempt === 1) return send(body, options);
    held.push({ body, delaySeconds: options?.delaySeconds });
    return {} as QueueSendResponse;
  });
  return held;
}

/**
 * The destination's delivery log through the API, `query` starting with `?` (200 or the test fails).
 *
 * @example
 * const { data } = await listAttempts(api, dest.id, `?event=${eventId}`);
 */
export async function listAttempts(api: ApiClient, destinationId: string, query: `?${string}` | "" = "") {
  const res = await api.get(`/v1/event-destinations/${destinationId}/attempts${query}`);
  expectStatus(res, 200);
  return res.body as unknown as List<DeliveryAttempt>;
}

/**
 * For a file of receiver tests: before each test a fresh account, its test-mode client and a
 * mocked receiver that answers `respond` (200 "ok" until the test replaces it); after each,
 * every mock restored. Read the fields inside the tests: each test gets new ones.
 *
 * @example
 * const t = receiverPerTest();
 * it("…", async () => {
 *   const dest = await createDestination(t.api);
 *   t.respond = () => new Response("down", { status: 503 });
 *   await expectCallsTo(t.calls, dest.url, 1);
 * });
 */
export function receiverPerTest() {
  const ok = () => new Response("ok");
  const t = {
    account: undefined as unknown as TestAccount,
    api: undefined as unknown as ApiClient,
    calls: [] as Call[],
    respond: ok as (call: Call) => Response,
    /** The requests the receiver got at `url`. */
    callsTo: (url: string) => t.calls.filter((c) => c.url === url),
  };
  beforeEach(async () => {
    t.account = await createAccount();
    t.api = client(t.account.testKey);
    t.respond = ok;
    t.calls = captureFetch((call) => t.respond(call)).calls;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return t;
}
