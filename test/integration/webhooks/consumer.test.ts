/**
 * The `webhook-deliveries` consumer and its dead-letter consumer, called directly with
 * message batches: what one attempt does with each kind of answer. Events are inserted
 * straight into D1 (already dispatched), so the real local queue carries nothing here.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import { client } from "../../helpers/api";
import { breakTable } from "../../helpers/db";
import { createAccount, createDestination, insertEvent, type TestAccount } from "../../helpers/factories";
import { type Call, captureFetch, deadLetters, deliveryAttempts, runQueue } from "../../helpers/webhooks";

/** Seconds to wait after failed attempt 1, 2, 3, 4 (WEBHOOK_RETRY_DELAYS in wrangler.toml). */
const DELAYS = [60, 600, 3600, 21600];

let account: TestAccount;

/** One message, the receiver's attempt `attempt`, for a new event to a new destination. */
async function deliverOnce(respond: (call: Call) => Response | Promise<Response>, attempt = 1) {
  const { calls } = captureFetch(respond);
  const dest = await createDestination(account.testKey);
  const eventId = await insertEvent(account.id);
  const body: DeliveryMessage = { event_id: eventId, destination_id: dest.id, attempt };
  const { result, retries, sent } = await runQueue([{ body }]);
  return { calls, result, retry: retries[0], sent, dest, eventId, body };
}

beforeEach(async () => {
  account = await createAccount();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("webhook consumer: a successful attempt", () => {
  it.each([200, 201, 202, 204, 299])(
    "a %i response acks the message and records a succeeded attempt",
    async (status) => {
      const { calls, result, retry, dest, eventId } = await deliverOnce(
        () => new Response(status === 204 ? null : "ok", { status }),
      );
      expect(calls).toHaveLength(1);
      expect(result.explicitAcks).toEqual(["m1"]);
      expect(result.retryMessages).toEqual([]);
      expect(retry).not.toHaveBeenCalled();
      expect(await deliveryAttempts(dest.id)).toEqual([
        expect.objectContaining({
          event_id: eventId,
          attempt: 1,
          outcome: "succeeded",
          status_code: status,
          error: null,
          duration_ms: expect.any(Number),
        }),
      ]);
    },
  );
});

describe("webhook consumer: a failed attempt", () => {
  const FAILURES: [string, () => Promise<Response>, Record<string, unknown>][] = [
    ["a 500", async () => new Response("boom", { status: 500 }), { status_code: 500, error: "HTTP 500" }],
    ["a 404", async () => new Response("nope", { status: 404 }), { status_code: 404, error: "HTTP 404" }],
    [
      "a 302 redirect",
      async () => new Response(null, { status: 302, headers: { location: "https://169.254.169.254/" } }),
      { status_code: 302, error: "HTTP 302" },
    ],
    [
      "a network error",
      () => Promise.reject(new TypeError("Network connection lost.")),
      { status_code: null, error: expect.stringMatching(/^network error: .*Network connection lost/) },
    ],
    [
      "a timeout",
      () => Promise.reject(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
      { status_code: null, error: "timeout" },
    ],
  ];
  const CASES = FAILURES.flatMap(([name, respond, row]) =>
    DELAYS.map((delay, i) => [name, i + 1, delay, respond, row] as const),
  );

  it.each(CASES)(
    "%s on attempt %i is retried after %i seconds and recorded as failed",
    async (_, attempt, delay, respond, row) => {
      const { calls, result, retry, sent, dest, eventId, body } = await deliverOnce(respond, attempt);
      expect(calls).toHaveLength(1);
      // The next attempt is a new message; this one is done.
      expect(sent).toEqual([{ body: { ...body, attempt: attempt + 1, shard: "DB" }, delaySeconds: delay }]);
      expect(retry).not.toHaveBeenCalled();
      expect(result.explicitAcks).toEqual(["m1"]);
      expect(await deliveryAttempts(dest.id)).toEqual([
        expect.objectContaining({
          event_id: eventId,
          attempt,
          outcome: "failed",
          duration_ms: expect.any(Number),
          ...row,
        }),
      ]);
      // One failure is not 24 hours of them.
      const read = await client(account.testKey).get(`/v1/event-destinations/${dest.id}`);
      expect(read.body).toMatchObject({ status: "enabled", disabled_reason: null });
    },
  );

  it("the request does not follow redirects (redirect: manual)", async () => {
    const { calls } = await deliverOnce(
      async () => new Response(null, { status: 302, headers: { location: "https://127.0.0.1/" } }),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.init.redirect).toBe("manual");
  });

  it("the request carries an AbortSignal, not yet aborted when it is sent (the 10 s timeout)", async () => {
    let aborted: boolean | undefined;
    const { calls } = await deliverOnce(async (call) => {
      aborted = call.init.signal?.aborted;
      return new Response("ok");
    });
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
    expect(aborted).toBe(false);
  });

  it("a receiver that does not answer within 10 seconds is aborted, recorded as a timeout and retried", async () => {
    // The real AbortSignal.timeout, shortened so the test does not wait 10 s.
    const realTimeout = AbortSignal.timeout.bind(AbortSignal);
    const timeout = vi.spyOn(AbortSignal, "timeout").mockImplementation(() => realTimeout(20));
    const { calls, result, sent, dest, body } = await deliverOnce(
      (call) =>
        new Promise<Response>((_, reject) => {
          const signal = call.init.signal as AbortSignal;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    expect(timeout).toHaveBeenCalledWith(10_000);
    expect(calls).toHaveLength(1);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(sent).toEqual([{ body: { ...body, attempt: 2, shard: "DB" }, delaySeconds: 60 }]);
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ outcome: "failed", status_code: null, error: "timeout" }),
    ]);
  });
});

describe("webhook consumer: the dead-letter queue", () => {
  it("a message dead-lettered by the previous consumer (no attempt in its body) is recorded as exhausted after 5 attempts, without a request", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    // That consumer dead-lettered after the receiver's fifth failure; the DLQ counts from 1.
    const { result, retries } = await runQueue(
      [{ body: { event_id: eventId, destination_id: dest.id }, attempts: 1 }],
      "webhook-deliveries-dlq",
    );
    expect(calls).toEqual([]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(retries[0]).not.toHaveBeenCalled();
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ event_id: eventId, attempt: 5, outcome: "exhausted", status_code: null }),
    ]);
    expect(await deadLetters(dest.id)).toEqual([
      expect.objectContaining({ reason: "exhausted", attempt: 5 }),
    ]);
  });

  it("the dead-letter consumer records and acks every message of a batch", async () => {
    captureFetch();
    const a = await createDestination(account.testKey);
    const b = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const { result } = await runQueue(
      [
        { body: { event_id: eventId, destination_id: a.id } },
        { body: { event_id: eventId, destination_id: b.id } },
      ],
      "webhook-deliveries-dlq",
    );
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect(await deliveryAttempts(a.id)).toEqual([expect.objectContaining({ outcome: "exhausted" })]);
    expect(await deliveryAttempts(b.id)).toEqual([expect.objectContaining({ outcome: "exhausted" })]);
  });
});

describe("webhook consumer: our own failures do not use up the receiver's 5 attempts", () => {
  it("an attempt that cannot be recorded (D1 write fails) is retried as the same attempt, so the receiver keeps its 5", async () => {
    const { calls } = captureFetch(() => new Response("boom", { status: 500 }));
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const body: DeliveryMessage = { event_id: eventId, destination_id: dest.id, attempt: 1 };
    const restore = await breakTable("delivery_attempts");
    vi.spyOn(console, "error").mockImplementation(() => {});

    const failed = await runQueue([{ body, attempts: 1 }]);
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });
    expect(failed.sent).toEqual([]);

    await restore();
    // The queue's second try of the same message: still the receiver's first attempt.
    const again = await runQueue([{ body, attempts: 2 }]);
    expect(calls).toHaveLength(2);
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "failed", status_code: 500 }),
    ]);
    expect(again.result.explicitAcks).toEqual(["m1"]);
    expect(again.sent).toEqual([{ body: { ...body, attempt: 2, shard: "DB" }, delaySeconds: 60 }]);
  });

  it.each([
    [1, 60],
    [2, 120],
    [3, 240],
    [6, 1920],
    [7, 3600],
    [10, 3600],
  ])(
    "our own failure on the queue's try %i is retried after %i seconds and sends nothing",
    async (attempts, delay) => {
      const { calls } = captureFetch();
      const dest = await createDestination(account.testKey);
      const eventId = await insertEvent(account.id);
      await breakTable("events");
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { result, retries, sent } = await runQueue([
        { body: { event_id: eventId, destination_id: dest.id, attempt: 4 }, attempts },
      ]);
      expect(calls).toEqual([]);
      expect(sent).toEqual([]);
      expect(result.explicitAcks).toEqual([]);
      expect(retries[0]).toHaveBeenCalledWith({ delaySeconds: delay });
    },
  );
});

describe("webhook consumer: the receiver's attempts travel in the message", () => {
  it.each(DELAYS.map((delay, i) => [i + 1, i + 2, delay] as const))(
    "a failed attempt %i queues attempt %i as a new message after %i seconds and acks this one",
    async (attempt, next, delay) => {
      captureFetch(() => new Response("boom", { status: 500 }));
      const dest = await createDestination(account.testKey);
      const body: DeliveryMessage = {
        event_id: await insertEvent(account.id),
        destination_id: dest.id,
        attempt,
      };
      const { result, retries, sent } = await runQueue([{ body }]);
      expect(result.explicitAcks).toEqual(["m1"]);
      expect(retries[0]).not.toHaveBeenCalled();
      expect(sent).toEqual([{ body: { ...body, attempt: next, shard: "DB" }, delaySeconds: delay }]);
      expect(await deliveryAttempts(dest.id)).toEqual([
        expect.objectContaining({ attempt, outcome: "failed" }),
      ]);
    },
  );

  it("the fifth failed attempt is the last: recorded failed then exhausted, kept as a dead letter, acked, nothing queued", async () => {
    captureFetch(() => new Response("boom", { status: 503 }));
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const { result, retries, sent } = await runQueue([
      { body: { event_id: eventId, destination_id: dest.id, attempt: 5 } },
    ]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(retries[0]).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
    expect((await deliveryAttempts(dest.id)).map((r) => [r.attempt, r.outcome])).toEqual([
      [5, "failed"],
      [5, "exhausted"],
    ]);
    expect(await deadLetters(dest.id)).toEqual([
      expect.objectContaining({ event_id: eventId, reason: "exhausted", redrive_requested_at: null }),
    ]);
  });
});

describe("webhook consumer: nothing that reaches the dead-letter queue is forgotten", () => {
  it("a dead-lettered message (our processing kept failing) is recorded as exhausted and kept as a dead letter, then acked", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    const { result, retries } = await runQueue(
      [{ body: { event_id: eventId, destination_id: dest.id, attempt: 2 }, attempts: 1 }],
      "webhook-deliveries-dlq",
    );
    expect(calls).toEqual([]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(retries[0]).not.toHaveBeenCalled();
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ event_id: eventId, attempt: 2, outcome: "exhausted", status_code: null }),
    ]);
    expect(await deadLetters(dest.id)).toEqual([
      expect.objectContaining({ event_id: eventId, reason: "dead_lettered" }),
    ]);
  });

  it("a dead letter that cannot be recorded is retried with a delay, never acked", async () => {
    captureFetch();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    await breakTable("delivery_attempts");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { result, retries } = await runQueue(
      [{ body: { event_id: eventId, destination_id: dest.id, attempt: 1 }, attempts: 3 }],
      "webhook-deliveries-dlq",
    );
    expect(result.explicitAcks).toEqual([]);
    expect(retries[0]).toHaveBeenCalledWith({ delaySeconds: 240 });
  });

  it("a dead-lettered message that is not a delivery at all is logged with its queue id and acked", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { result } = await runQueue(
      [{ body: { nonsense: true } as unknown as DeliveryMessage }],
      "webhook-deliveries-dlq",
    );
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(errors.mock.calls.map((c) => String(c[0])).join()).toContain("m1");
  });
});
