/**
 * The fan-out under failure: every event is dispatched on its own, so a fan-out cut short
 * re-sends only the events whose messages did not reach the queue, and one event's failure
 * does not hold back the others. The queue producer is replaced by a spy that records what
 * would be queued (nothing reaches the real local queue here, so no consumer marks an event
 * dispatched: what the sweep queued it stamps, and leaves for five minutes).
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import { nowMs } from "../../../src/lib/clock";
import { type RedriveFilter, redriveStatement } from "../../../src/webhooks/redrive";
import { client, expectStatus } from "../../helpers/api";
import { failingWith } from "../../helpers/db";
import { createAccount, createDestination, insertEvent, insertEvents } from "../../helpers/factories";
import { runCron } from "../../helpers/verifications";
import { captureFetch, deadLetters, dispatchedAt, runQueue } from "../../helpers/webhooks";

const MINUTE = 60_000;

/** Every message the producer accepted, in order. */
let queued: DeliveryMessage[];
let sendBatch: MockInstance<Queue<DeliveryMessage>["sendBatch"]>;
/** Throws for a batch that carries one of these events. */
let failingEvents: Set<string>;

beforeEach(() => {
  queued = [];
  failingEvents = new Set();
  // The failures these tests cause are logged; the lines are read where they matter.
  vi.spyOn(console, "error").mockImplementation(() => {});
  sendBatch = vi
    .spyOn(env.WEBHOOKS as Queue<DeliveryMessage>, "sendBatch")
    .mockImplementation(async (messages) => {
      const bodies = [...messages].map((m) => m.body);
      if (bodies.some((b) => failingEvents.has(b.event_id))) throw new Error("Queue send failed");
      queued.push(...bodies);
      return {} as QueueSendBatchResponse;
    });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const pairsOf = (messages: DeliveryMessage[]) => messages.map((m) => `${m.event_id}>${m.destination_id}`);

describe("a fan-out cut short re-sends only what was not sent", () => {
  it("7 events × 16 destinations, the queue failing once: every (event, destination) is queued exactly once over two sweeps", async () => {
    const account = await createAccount();
    const destinations: string[] = [];
    for (let i = 0; i < 16; i++) destinations.push((await createDestination(account.testKey)).id);
    const events = await insertEvents(account.id, 7, { ageMs: 5 * MINUTE, dispatchedAt: null });
    // The second send fails: 112 messages are more than one of the old 100-message batches.
    let calls = 0;
    const forward = sendBatch.getMockImplementation();
    sendBatch.mockImplementation(async (messages, options) => {
      if (++calls === 2) throw new Error("Queue send failed");
      return (forward as NonNullable<typeof forward>)(messages, options);
    });

    await runCron();
    const firstRun = new Set(queued.map((m) => m.event_id));
    expect(firstRun.size).toBeGreaterThan(0);
    expect(firstRun.size).toBeLessThan(events.length);

    await runCron();
    const expected = events.flatMap((e) => destinations.map((d) => `${e}>${d}`));
    expect(pairsOf(queued).sort()).toEqual(expected.sort());
  });

  it("an event whose messages reached the queue is left by the next sweep; one whose send failed is queued by it", async () => {
    const account = await createAccount();
    const dest = await createDestination(account.testKey);
    const [sent, failing] = await insertEvents(account.id, 2, { ageMs: 5 * MINUTE, dispatchedAt: null });
    failingEvents.add(failing as string);

    await runCron();
    expect(pairsOf(queued)).toEqual([`${sent}>${dest.id}`]);
    // Dispatched is the consumer's mark, and no consumer took it yet.
    expect(await dispatchedAt(sent as string)).toBeNull();
    failingEvents.clear();
    await runCron();
    expect(pairsOf(queued)).toEqual([`${sent}>${dest.id}`, `${failing}>${dest.id}`]);
  });
});

describe("the sweep handles each event on its own", () => {
  it("a failed mark of an event with nothing to send does not stop the sweep stamping what it queued: that is not queued again", async () => {
    const account = await createAccount();
    const dest = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    const sent = await insertEvent(account.id, { ageMs: 5 * MINUTE, dispatchedAt: null });
    const silent = await insertEvent(account.id, {
      ageMs: 5 * MINUTE,
      dispatchedAt: null,
      type: "customer.deleted",
    });

    await failingWith("BEFORE UPDATE OF dispatched_at ON events", runCron);
    expect(pairsOf(queued)).toEqual([`${sent}>${dest.id}`]);
    expect(await dispatchedAt(silent)).toBeNull();

    await runCron();
    expect(pairsOf(queued)).toEqual([`${sent}>${dest.id}`]);
    expect(await dispatchedAt(silent)).not.toBeNull();
  });

  it("one tenant's failing event does not stall another tenant's events, and the failure is logged by id only", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const destA = await createDestination(a.testKey);
    const destB = await createDestination(b.testKey);
    // A's event is the oldest: first in line.
    const stuck = await insertEvent(a.id, { ageMs: 10 * MINUTE, dispatchedAt: null });
    const other = await insertEvent(b.id, { ageMs: 5 * MINUTE, dispatchedAt: null });
    failingEvents.add(stuck);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    await runCron();
    expect(pairsOf(queued)).toEqual([`${other}>${destB.id}`]);
    const logged = errors.mock.calls.map((call) => String(call[0]));
    expect(logged.some((line) => line.includes(stuck) && line.includes("dispatch"))).toBe(true);
    // Ids only: no destination URL, secret or event data.
    expect(logged.join("\n")).not.toMatch(/hooks\.example\.com|whsec_|"data"/);

    failingEvents.clear();
    await runCron();
    expect(pairsOf(queued)).toEqual([`${other}>${destB.id}`, `${stuck}>${destA.id}`]);
  });

  it("every message of an event carries attempt 1 (the receiver's attempts are counted in the message) and fan_out (its consumer marks the event)", async () => {
    const account = await createAccount();
    const dest = await createDestination(account.testKey);
    const eventId = await insertEvent(account.id, { ageMs: 5 * MINUTE, dispatchedAt: null });
    await runCron();
    expect(queued).toEqual([
      { event_id: eventId, destination_id: dest.id, attempt: 1, fan_out: true, shard: "DB" },
    ]);
  });
});

describe("re-driving dead letters (npm run webhooks:redrive)", () => {
  /** A delivery whose fifth attempt failed: a dead letter of `destinationId`. */
  async function exhausted(accountId: string, destinationId: string): Promise<string> {
    const eventId = await insertEvent(accountId);
    captureFetch(() => new Response("down", { status: 503 }));
    await runQueue([{ body: { event_id: eventId, destination_id: destinationId, attempt: 5 } }]);
    // The failure opened the destination's circuit; the next delivery comes once it has closed.
    await env.DB.prepare("UPDATE event_destinations SET circuit_until = NULL WHERE id = ?")
      .bind(destinationId)
      .run();
    return eventId;
  }

  /** What the script runs through `wrangler d1 execute`. */
  const redrive = (filter: RedriveFilter) =>
    env.DB.prepare(redriveStatement(filter, new Date(nowMs()).toISOString())).all();

  it("--event marks the event's dead letters; the next cron queues them again as attempt 1 and forgets them", async () => {
    const account = await createAccount();
    const a = await createDestination(account.testKey);
    const b = await createDestination(account.testKey);
    const eventId = await exhausted(account.id, a.id);
    const second = await exhausted(account.id, b.id);
    const third = await exhausted(account.id, b.id);

    await runCron();
    expect(queued).toEqual([]);
    expect((await redrive({ event: eventId })).results).toHaveLength(1);
    await runCron();
    expect(queued).toEqual([{ event_id: eventId, destination_id: a.id, attempt: 1, shard: "DB" }]);
    expect(await deadLetters(a.id)).toEqual([]);
    expect(await deadLetters(b.id)).toHaveLength(2);
    await runCron();
    expect(queued).toHaveLength(1);
    expect((await redrive({ destination: b.id })).results).toHaveLength(2);
    await runCron();
    expect(pairsOf(queued.slice(1)).sort()).toEqual([`${second}>${b.id}`, `${third}>${b.id}`].sort());
    expect(await deadLetters(b.id)).toEqual([]);
  });

  it("a dead letter of a disabled destination waits for its enable", async () => {
    const account = await createAccount();
    const dest = await createDestination(account.testKey);
    const eventId = await exhausted(account.id, dest.id);
    expectStatus(await client(account.testKey).post(`/v1/event-destinations/${dest.id}/disable`), 200);
    await redrive({ all: true });
    await runCron();
    expect(queued).toEqual([]);
    expectStatus(await client(account.testKey).post(`/v1/event-destinations/${dest.id}/enable`), 200);
    await runCron();
    expect(queued).toEqual([{ event_id: eventId, destination_id: dest.id, attempt: 1, shard: "DB" }]);
  });

  it("the script refuses to run without --event, --destination or --all, and rejects malformed ids", () => {
    const now = new Date().toISOString();
    expect(() => redriveStatement({}, now)).toThrow(/--event|--destination|--all/);
    expect(() => redriveStatement({ event: "evt_1' OR 1=1 --" }, now)).toThrow(/--event/);
    expect(() => redriveStatement({ destination: "cus_01JD" }, now)).toThrow(/--destination/);
  });
});
