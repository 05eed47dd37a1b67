/**
 * The `webhook-deliveries` consumer, called directly: successive attempts of one delivery,
 * batches of several messages, and messages whose destination stopped receiving.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newId } from "../../../src/lib/ids";
import { CIRCUIT_MAX_MS } from "../../../src/webhooks/circuit";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createDestination, insertEvent, type TestAccount } from "../../helpers/factories";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { captureFetch, deliveryAttempts, runQueue } from "../../helpers/webhooks";

const T0 = Date.UTC(2025, 0, 5, 12, 0, 0);

let account: TestAccount;

beforeEach(async () => {
  account = await createAccount();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("webhook consumer: successive attempts", () => {
  it("every attempt carries a new timestamp and signature over the same body", async () => {
    const { calls } = captureFetch(() => new Response("boom", { status: 500 }));
    const dest = await createDestination(account.testKey);
    const body = { event_id: await insertEvent(account.id), destination_id: dest.id };
    const clock = useClock(T0);
    await runQueue([{ body: { ...body, attempt: 1 } }]);
    clock.set(T0 + 60_000);
    await runQueue([{ body: { ...body, attempt: 2 } }]);
    clock.set(T0 + 660_000);
    await runQueue([{ body: { ...body, attempt: 3 } }]);

    expect(calls).toHaveLength(3);
    const signatures = calls.map((c) => parseSignature(c.headers.get("service-signature")));
    expect(signatures.map((s) => s?.t)).toEqual([T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 660]);
    expect(new Set(signatures.map((s) => s?.v1)).size).toBe(3);
    expect(new Set(calls.map((c) => c.body)).size).toBe(1);
    for (const [i, call] of calls.entries()) {
      expect(signatures[i]?.v1).toBe(await referenceHmac(dest.secret, `${signatures[i]?.t}.${call.body}`));
      expect(call.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("every attempt of a delivery is recorded with its number, status, duration, error and outcome", async () => {
    const answers = [500, 502, 0, 404, 200];
    let n = 0;
    captureFetch(async () => {
      const status = answers[n++] as number;
      if (status === 0) throw new TypeError("connection refused");
      return new Response("x", { status });
    });
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const clock = useClock(Date.now());
    for (let attempt = 1; attempt <= 5; attempt++) {
      await runQueue([{ body: { event_id: eventId, destination_id: dest.id, attempt } }]);
      // Each next attempt comes after its delay, by when the failure's circuit has closed.
      clock.advance(CIRCUIT_MAX_MS);
    }
    const rows = await deliveryAttempts(dest.id);
    expect(rows.map((r) => [r.attempt, r.outcome, r.status_code, r.error])).toEqual([
      [1, "failed", 500, "HTTP 500"],
      [2, "failed", 502, "HTTP 502"],
      [3, "failed", null, expect.stringContaining("connection refused")],
      [4, "failed", 404, "HTTP 404"],
      [5, "succeeded", 200, null],
    ]);
    for (const r of rows) {
      expect(r.event_id).toBe(eventId);
      expect(r.duration_ms).toEqual(expect.any(Number));
      expect(r.duration_ms as number).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("webhook consumer: batches", () => {
  it("the messages of a batch are delivered concurrently and each is acked, a failed one after queueing its next attempt", async () => {
    const ok = await createDestination(account.testKey, { url: "https://ok.example.com/a" });
    const failing = await createDestination(account.testKey, { url: "https://fail.example.com/b" });
    const ok2 = await createDestination(account.testKey, { url: "https://ok.example.com/c" });
    const eventId = await insertEvent(account.id);

    // Every request waits until all three have started: sequential sends stall for 2 s each
    // and the test fails instead of hanging.
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stalled = false;
    captureFetch(async (call) => {
      if (++started === 3) release();
      await Promise.race([
        allStarted,
        new Promise<void>((resolve) =>
          setTimeout(() => {
            stalled = true;
            resolve();
          }, 2000),
        ),
      ]);
      return new Response("x", { status: call.url.includes("fail") ? 500 : 200 });
    });

    const { result, retries, sent } = await runQueue([
      { body: { event_id: eventId, destination_id: ok.id, attempt: 1 } },
      { body: { event_id: eventId, destination_id: failing.id, attempt: 2 } },
      { body: { event_id: eventId, destination_id: ok2.id, attempt: 1 } },
    ]);
    expect(stalled, "the sends did not run concurrently").toBe(false);
    expect(started).toBe(3);
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2", "m3"]);
    for (const retry of retries) expect(retry).not.toHaveBeenCalled();
    expect(sent).toEqual([
      { body: { event_id: eventId, destination_id: failing.id, attempt: 3, shard: "DB" }, delaySeconds: 600 },
    ]);
  });

  it("a message whose handling throws is retried without holding back the others", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const { result, retries } = await runQueue([
      // Not a delivery message at all: handling it throws.
      { body: null as unknown as { event_id: string; destination_id: string } },
      { body: { event_id: eventId, destination_id: dest.id } },
    ]);
    expect(calls).toHaveLength(1);
    expect(result.explicitAcks).toEqual(["m2"]);
    expect(result.retryMessages).toEqual([{ msgId: "m1" }]);
    expect(retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });
  });
});

describe("webhook consumer: destinations that stopped receiving", () => {
  it("a message for a destination disabled through the API is acked without a request", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    expectStatus(await client(account.testKey).post(`/v1/event-destinations/${dest.id}/disable`), 200);
    const { result, retries } = await runQueue([
      { body: { event_id: await insertEvent(account.id), destination_id: dest.id }, attempts: 2 },
    ]);
    expect(calls).toEqual([]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(retries[0]).not.toHaveBeenCalled();
  });

  it("a message whose destination was deleted is acked without a request", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    expectStatus(await client(account.testKey).del(`/v1/event-destinations/${dest.id}`), 204);
    const { result, retries } = await runQueue([
      { body: { event_id: await insertEvent(account.id), destination_id: dest.id }, attempts: 3 },
    ]);
    expect(calls).toEqual([]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(retries[0]).not.toHaveBeenCalled();
  });

  it("a message whose event does not exist is acked without a request", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    const { result } = await runQueue([{ body: { event_id: newId("event"), destination_id: dest.id } }]);
    expect(calls).toEqual([]);
    expect(result.explicitAcks).toEqual(["m1"]);
  });

  it.each([
    ["another account", async () => insertEvent((await createAccount()).id)],
    ["the other environment", async () => insertEvent(account.id, { live: true })],
  ])(
    "a message pairing a destination with an event of %s is acked without a request",
    async (_, makeEvent) => {
      const { calls } = captureFetch();
      const dest = await createDestination(account.testKey);
      const { result, retries } = await runQueue([
        { body: { event_id: await makeEvent(), destination_id: dest.id } },
      ]);
      expect(calls).toEqual([]);
      expect(result.explicitAcks).toEqual(["m1"]);
      expect(retries[0]).not.toHaveBeenCalled();
    },
  );
});

describe("webhook consumer: the invocation's six connections", () => {
  it("a batch of 10 deliveries has at most 6 POSTs in flight (Workers queues a seventh, and its timeout would run unsent); all 10 are delivered", async () => {
    let inFlight = 0;
    let most = 0;
    const { calls } = captureFetch(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return new Response("ok");
    });
    // Two accounts, five each: one account holds at most three of the six (next test).
    const other = await createAccount();
    const messages = [];
    for (let i = 0; i < 10; i++) {
      const owner = i % 2 === 0 ? account : other;
      const dest = await createDestination(owner.testKey);
      messages.push({
        body: { event_id: await insertEvent(owner.id), destination_id: dest.id, attempt: 1 },
      });
    }
    const { result } = await runQueue(messages);
    expect(result.explicitAcks).toHaveLength(10);
    expect(calls).toHaveLength(10);
    expect(most).toBe(6);
  });
});
