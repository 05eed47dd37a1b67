/**
 * A write makes its events' first delivery attempts itself, right after its response, and
 * keeps the queue for what needs it: the retries of a failed attempt, and the cron sweep of
 * an event whose first attempts were cut short (at least once, never none). The receiver is
 * mocked at fetch; the queue producer is spied on and kept from the real queue, so no
 * consumer runs here: what these tests see is the request's own fan-out.
 */
import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import * as schema from "../../../src/db/schema";
import { nowMs } from "../../../src/lib/clock";
import { connectionSlots } from "../../../src/lib/connections";
import { retryDelayAfter } from "../../../src/webhooks/config";
import { dispatchAfterWrite, MAX_FIRST_ATTEMPTS } from "../../../src/webhooks/first-attempt";
import { afterResponses } from "../../helpers/after-response";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { failingWith } from "../../helpers/db";
import {
  createAccount,
  createDestination,
  insertEvents,
  type TestAccount,
  validCustomer,
} from "../../helpers/factories";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { runCron } from "../../helpers/verifications";
import { type Call, captureFetch, deliveryAttempts, dispatchedAt } from "../../helpers/webhooks";

const MINUTE = 60_000;

let account: TestAccount;
let calls: Call[];
/** What the request's fan-out put on the queue (attempt 2 of a failed first attempt). */
let queued: { body: DeliveryMessage; delaySeconds?: number }[];
let sendBatch: MockInstance<Queue<DeliveryMessage>["sendBatch"]>;
/** Receivers (by URL) that answer 500. */
let failing: Set<string>;

beforeEach(async () => {
  account = await createAccount();
  failing = new Set();
  calls = captureFetch((call) => new Response("", { status: failing.has(call.url) ? 500 : 200 })).calls;
  queued = [];
  const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
  sendBatch = vi.spyOn(producer, "sendBatch").mockImplementation(async (messages) => {
    queued.push(...[...messages].map(({ body, delaySeconds }) => ({ body, delaySeconds })));
    return {} as QueueSendBatchResponse;
  });
  vi.spyOn(producer, "send").mockRejectedValue(new Error("the request's fan-out uses sendBatch"));
  // The failures these tests cause are logged; the log is not what they look at.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => vi.restoreAllMocks());

/** Creates a customer and waits for what its request left running: its first attempts. */
async function customerCreatedEvent(): Promise<string> {
  const res = await client(account.testKey).post("/v1/customers", validCustomer);
  expectStatus(res, 201);
  await afterResponses();
  const row = await env.DB.prepare(
    "SELECT id FROM events WHERE related_object_id = ? AND type = 'customer.created'",
  )
    .bind(res.body.id)
    .first<{ id: string }>();
  return row?.id as string;
}

/** What was queued for one event (the sweep also takes other tests' leftovers). */
const queuedFor = (eventId: string) => queued.filter((m) => m.body.event_id === eventId).map((m) => m.body);

const callsFor = (url: string, eventId: string) =>
  calls.filter((c) => c.url === url && JSON.parse(c.body).id === eventId);

describe("a write makes its events' first delivery attempts itself", () => {
  it("the first attempt goes from the write, signed, without the queue; it is recorded as attempt 1 and the event marked dispatched", async () => {
    const dest = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    const eventId = await customerCreatedEvent();

    const [call, ...more] = callsFor(dest.url, eventId);
    expect(more).toEqual([]);
    const signature = parseSignature(call?.headers.get("service-signature") ?? null);
    expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call?.body}`));
    expect(queued).toEqual([]);
    expect(await dispatchedAt(eventId)).not.toBeNull();
    const [attempt, ...others] = await deliveryAttempts(dest.id);
    expect(others).toEqual([]);
    expect(attempt).toMatchObject({ event_id: eventId, attempt: 1, outcome: "succeeded", status_code: 200 });
  });

  it("a failed first attempt queues attempt 2 after the first retry delay, records the failure and the destination's failing streak, and marks the event", async () => {
    const dest = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    failing.add(dest.url);
    const eventId = await customerCreatedEvent();

    expect(callsFor(dest.url, eventId)).toHaveLength(1);
    expect(queued).toEqual([
      {
        body: { event_id: eventId, destination_id: dest.id, attempt: 2, fan_out: true, shard: "DB" },
        delaySeconds: retryDelayAfter(env, 1),
      },
    ]);
    const [attempt] = await deliveryAttempts(dest.id);
    expect(attempt).toMatchObject({ attempt: 1, outcome: "failed", status_code: 500, error: "HTTP 500" });
    const streak = await env.DB.prepare("SELECT failing_since FROM event_destinations WHERE id = ?")
      .bind(dest.id)
      .first<string | null>("failing_since");
    expect(streak).toBe(attempt?.created_at);
    expect(await dispatchedAt(eventId)).not.toBeNull();
  });

  it("each subscribed destination gets one first attempt; only the one that failed is retried", async () => {
    const ok = await createDestination(account.testKey);
    const down = await createDestination(account.testKey);
    const unsubscribed = await createDestination(account.testKey, { enabled_events: ["invoice.issued"] });
    failing.add(down.url);
    const eventId = await customerCreatedEvent();

    expect(callsFor(ok.url, eventId)).toHaveLength(1);
    expect(callsFor(down.url, eventId)).toHaveLength(1);
    expect(calls.filter((c) => c.url === unsubscribed.url)).toEqual([]);
    expect(queued.filter((m) => m.body.event_id === eventId).map((m) => m.body.destination_id)).toEqual([
      down.id,
    ]);
    expect((await deliveryAttempts(ok.id)).map((a) => a.outcome)).toContain("succeeded");
    expect((await deliveryAttempts(down.id)).map((a) => a.outcome)).toContain("failed");
  });
});

describe("a write with more deliveries than it attempts itself queues them", () => {
  /** `events` undispatched events and 16 destinations taking every type, dispatched as a write would. */
  async function dispatch(eventCount: number) {
    const destinations = [];
    for (let i = 0; i < 16; i++) destinations.push(await createDestination(account.testKey));
    const ids = await insertEvents(account.id, eventCount, { dispatchedAt: null });
    const db = drizzle(env.DB, { schema });
    const rows = await db.select().from(schema.events).where(inArray(schema.events.id, ids));
    const listeners = await db
      .select()
      .from(schema.eventDestinations)
      .where(
        inArray(
          schema.eventDestinations.id,
          destinations.map((d) => d.id),
        ),
      );
    await dispatchAfterWrite(env, rows, listeners, connectionSlots());
    return { ids, destinations };
  }

  it(`3 events to 16 destinations (48, within ${MAX_FIRST_ATTEMPTS}) are attempted by the write`, async () => {
    const { ids } = await dispatch(3);
    expect(calls.filter((c) => ids.includes(JSON.parse(c.body).id))).toHaveLength(48);
    expect(queued).toEqual([]);
  });

  it("the write's first attempts take the invocation's six connections: never more than 6 POSTs in flight", async () => {
    let inFlight = 0;
    let most = 0;
    captureFetch(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return new Response("ok");
    });
    const { ids } = await dispatch(3);
    const attempts = await env.DB.prepare(
      `SELECT count(*) AS n FROM delivery_attempts WHERE outcome = 'succeeded' AND event_id IN (${ids.map(() => "?").join(", ")})`,
    )
      .bind(...ids)
      .first<number>("n");
    expect(attempts).toBe(48);
    expect(most).toBe(6);
  });

  it(`4 events to 16 destinations (64, past ${MAX_FIRST_ATTEMPTS}) go on the queue as attempt 1, none attempted by the write`, async () => {
    const { ids, destinations } = await dispatch(4);
    expect(calls.filter((c) => ids.includes(JSON.parse(c.body).id))).toEqual([]);
    const pairs = queued.map((m) => `${m.body.event_id}>${m.body.destination_id}>${m.body.attempt}`);
    expect(pairs.sort()).toEqual(ids.flatMap((e) => destinations.map((d) => `${e}>${d.id}>1`)).sort());
  });
});

describe("first attempts cut short: the event is left for the sweep, at least once", () => {
  it("a failed first attempt whose retry cannot be queued is not recorded, the event stays unmarked, and the sweep queues attempt 1 five minutes on", async () => {
    const clock = useClock(nowMs());
    const dest = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    failing.add(dest.url);
    sendBatch.mockRejectedValueOnce(new Error("Queue send failed"));
    const eventId = await customerCreatedEvent();

    expect(callsFor(dest.url, eventId)).toHaveLength(1);
    expect(await dispatchedAt(eventId)).toBeNull();
    expect(await deliveryAttempts(dest.id)).toEqual([]);

    clock.advance(4 * MINUTE);
    await runCron();
    expect(queuedFor(eventId)).toEqual([]);
    clock.advance(2 * MINUTE);
    await runCron();
    expect(queuedFor(eventId)).toEqual([
      { event_id: eventId, destination_id: dest.id, attempt: 1, fan_out: true, shard: "DB" },
    ]);
  });

  it("a first attempt that cannot be recorded leaves the event unmarked, and the sweep queues it again", async () => {
    const clock = useClock(nowMs());
    const dest = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    const eventId = await failingWith("BEFORE INSERT ON delivery_attempts", customerCreatedEvent);

    expect(callsFor(dest.url, eventId)).toHaveLength(1);
    expect(await dispatchedAt(eventId)).toBeNull();
    clock.advance(6 * MINUTE);
    await runCron();
    expect(queuedFor(eventId)).toEqual([
      { event_id: eventId, destination_id: dest.id, attempt: 1, fan_out: true, shard: "DB" },
    ]);
  });
});
