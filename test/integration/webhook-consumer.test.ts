/**
 * The `webhook-deliveries` consumer and its dead-letter consumer, called directly with
 * message batches: what one attempt does with each kind of answer. Events are inserted
 * straight into D1 (already dispatched), so the real local queue carries nothing here.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../src/webhooks/message";
import { client } from "../helpers/api";
import { createAccount, createDestination, insertEvent, type TestAccount } from "../helpers/factories";
import { type Call, captureFetch, deliveryAttempts, runQueue } from "../helpers/webhooks";

/** Seconds to wait after failed attempt 1, 2, 3, 4 (WEBHOOK_RETRY_DELAYS in wrangler.toml). */
const DELAYS = [60, 600, 3600, 21600];

let account: TestAccount;

/** One message for a new event to a new destination, through the consumer. */
async function deliverOnce(respond: (call: Call) => Response | Promise<Response>, attempts = 1) {
  const { calls } = captureFetch(respond);
  const dest = await createDestination(account.testKey);
  const eventId = await insertEvent(account.id);
  const body: DeliveryMessage = { event_id: eventId, destination_id: dest.id };
  const { result, retries } = await runQueue([{ body, attempts }]);
  return { calls, result, retry: retries[0], dest, eventId };
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
      const { calls, result, retry, dest, eventId } = await deliverOnce(respond, attempt);
      expect(calls).toHaveLength(1);
      expect(retry).toHaveBeenCalledTimes(1);
      expect(retry).toHaveBeenCalledWith({ delaySeconds: delay });
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages).toEqual([{ msgId: "m1" }]);
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
    const { calls, result, retry, dest } = await deliverOnce(
      (call) =>
        new Promise<Response>((_, reject) => {
          const signal = call.init.signal as AbortSignal;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    expect(timeout).toHaveBeenCalledWith(10_000);
    expect(calls).toHaveLength(1);
    expect(result.retryMessages).toEqual([{ msgId: "m1" }]);
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 60 });
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ outcome: "failed", status_code: null, error: "timeout" }),
    ]);
  });

  it("a failed fifth attempt calls retry, which hands the message to the dead-letter queue", async () => {
    const { result, retry, dest } = await deliverOnce(async () => new Response("boom", { status: 503 }), 5);
    expect(retry).toHaveBeenCalledTimes(1);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: "m1" }]);
    expect(await deliveryAttempts(dest.id)).toEqual([
      expect.objectContaining({ attempt: 5, outcome: "failed", status_code: 503 }),
    ]);
  });
});

describe("webhook consumer: the dead-letter queue", () => {
  it("the dead-letter consumer records an exhausted attempt, makes no request and acks", async () => {
    const { calls } = captureFetch();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id);
    // The dead-letter queue counts its own attempts from 1.
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
