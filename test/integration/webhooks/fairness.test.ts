/**
 * Fair delivery (issue 30, item 2): one account's receivers that never answer must not delay
 * another account's deliveries. The consumer is driven as Cloudflare Queues drives it in
 * production: batches of up to 50 (`max_batch_size`), up to 10 of them side by side
 * (`max_concurrency`), in queue order, each message visible after its delay. (Miniflare's
 * local broker runs one batch at a time, which no production queue does.) Outbound `fetch`
 * is the network boundary: account A's 16 receivers hang until the 10-second timeout aborts
 * them; account B's answers at once.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import jobs from "../../../src/jobs";
import { CONNECTIONS_PER_INVOCATION } from "../../../src/lib/connections";
import { sweepUndispatched } from "../../../src/webhooks/sweep";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, createDestination, insertEvent, insertEvents } from "../../helpers/factories";
import { captureFetch } from "../../helpers/webhooks";

const BATCH_SIZE = 50;
const CONCURRENCY = 10;
const queueHandler = jobs.queue as NonNullable<ExportedHandler<Env, DeliveryMessage>["queue"]>;

type Pending = { body: DeliveryMessage; visibleAt: number; tries: number };

/**
 * The `webhook-deliveries` queue as production runs it: what the API and the consumer send
 * (`send`, `sendBatch`) is kept here, in order, and `run` hands it to the consumer.
 */
function productionQueue() {
  const pending: Pending[] = [];
  const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
  const add = (body: DeliveryMessage, delaySeconds = 0, tries = 0) =>
    pending.push({ body, visibleAt: Date.now() + delaySeconds * 1000, tries });
  vi.spyOn(producer, "send").mockImplementation(async (body, options) => {
    add(body, options?.delaySeconds);
    return {} as QueueSendResponse;
  });
  vi.spyOn(producer, "sendBatch").mockImplementation(async (messages) => {
    for (const m of messages) add(m.body, m.delaySeconds);
    return {} as QueueSendBatchResponse;
  });

  async function runBatch(taken: Pending[]): Promise<void> {
    const batch = createMessageBatch<DeliveryMessage>(
      "webhook-deliveries",
      taken.map((m, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: m.tries + 1, body: m.body })),
    );
    const ctx = createExecutionContext();
    await queueHandler(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    // Our own failures come back after their delay, as Queues retries them.
    for (const retry of result.retryMessages) {
      const m = taken[Number(retry.msgId.slice(1))] as Pending;
      add(m.body, retry.delaySeconds ?? 0, m.tries + 1);
    }
  }

  /** Runs batches until `done()` or `ms` have passed. */
  async function run(done: () => boolean, ms: number): Promise<void> {
    const until = Date.now() + ms;
    const running = new Set<Promise<void>>();
    while (!done() && Date.now() < until) {
      const visible = pending.filter((m) => m.visibleAt <= Date.now());
      if (running.size < CONCURRENCY && visible.length > 0) {
        const taken = visible.slice(0, BATCH_SIZE);
        for (const m of taken) pending.splice(pending.indexOf(m), 1);
        const p: Promise<void> = runBatch(taken).finally(() => running.delete(p));
        running.add(p);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    await Promise.all(running);
  }

  return { pending, run };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("fair background work", () => {
  it("account A with 16 hanging destinations and 200 events: account B's ping and resend still arrive within 30 s", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const hanging = [];
    for (let i = 0; i < 16; i++) {
      hanging.push(await createDestination(a.testKey, { url: `https://hang-${i}.example.com/hook` }));
    }
    const receiverB = await createDestination(b.testKey, { url: "https://b.example.com/hook" });

    let aInFlight = 0;
    let aMostInFlight = 0;
    const arrivals: { event: string; at: number }[] = [];
    const { calls } = captureFetch(async (call) => {
      if (call.url.includes("hang-")) {
        aMostInFlight = Math.max(aMostInFlight, ++aInFlight);
        // Never answers: the attempt's own timeout aborts it.
        await new Promise((_, reject) =>
          call.init.signal?.addEventListener("abort", () => reject(call.init.signal?.reason)),
        ).finally(() => aInFlight--);
      }
      arrivals.push({ event: JSON.parse(call.body).id, at: Date.now() });
      return new Response("ok");
    });

    const queue = productionQueue();
    // A's 200 events, their first attempts lost: the sweep queues 16 messages for each.
    await insertEvents(a.id, 200, { ageMs: 6 * 60_000, dispatchedAt: null });
    expect(await sweepUndispatched(env)).toBe(200);
    expect(queue.pending).toHaveLength(3200);

    const started = Date.now();
    const ping = await client(b.testKey).post(`/v1/event-destinations/${receiverB.id}/ping`);
    expectStatus(ping, 200);
    const past = await insertEvent(b.id);
    expectStatus(
      await client(b.testKey).post(`/v1/event-destinations/${receiverB.id}/resend`, { event: past }),
      200,
    );
    const pingId = (ping.body as { id: string }).id;
    const arrived = (id: string) => arrivals.find((x) => x.event === id);

    await queue.run(() => Boolean(arrived(pingId) && arrived(past)), 30_000);

    expect(arrived(pingId)?.at, "B's ping did not arrive within 30 s").toBeLessThan(started + 30_000);
    expect(arrived(past)?.at, "B's resend did not arrive within 30 s").toBeLessThan(started + 30_000);
    // A's deliveries are held, not lost: every one of its 3,200 is still queued or attempted.
    const aAttempts = calls.filter((c) => c.url.includes("hang-")).length;
    const aHeld = queue.pending.filter((m) => m.body.destination_id !== receiverB.id).length;
    expect(aHeld + aAttempts).toBeGreaterThanOrEqual(3200);
    // Once a destination failed, its messages wait for its circuit instead of being tried:
    // each of A's destinations was tried a few times at most; and A never held more than half
    // of any invocation's connections.
    expect(aAttempts).toBeLessThanOrEqual(3 * 16);
    expect(aMostInFlight).toBeLessThanOrEqual(CONCURRENCY * (CONNECTIONS_PER_INVOCATION / 2));
    console.log(
      `B: ping after ${(arrived(pingId)?.at ?? 0) - started} ms, resend after ${(arrived(past)?.at ?? 0) - started} ms; A: ${aAttempts} attempts, ${aMostInFlight} at most at once`,
    );
  }, 90_000);
});
