/**
 * The outbox sweep (the scheduled handler): events whose first attempts never finished,
 * because the isolate died right after the write, are queued by the cron once five minutes
 * old. Deliveries then go through the real local queue to a mocked fetch,
 * and the consumer that takes an event's message marks it dispatched.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import { nowMs } from "../../../src/lib/clock";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createDestination,
  insertEvent,
  insertEvents,
  type TestAccount,
  validCustomer,
} from "../../helpers/factories";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { runCron } from "../../helpers/verifications";
import { type Call, captureFetch, dispatchedAt, waitOutStrays } from "../../helpers/webhooks";

const SECOND = 1000;
const MINUTE = 60 * SECOND;

let account: TestAccount;
let calls: Call[];

/**
 * A customer.created event as a request leaves it when its isolate dies right after the
 * write: committed, never dispatched. `ageMs` is how old it is by the app's clock.
 */
function insertUndispatched(ageMs: number, options: { live?: boolean } = {}): Promise<string> {
  return insertEvent(account.id, { ageMs, dispatchedAt: null, ...options });
}

const eventIdsTo = (dest: { url: string }) =>
  calls.filter((c) => c.url === dest.url).map((c) => JSON.parse(c.body).id);

async function expectDelivered(dest: { url: string }, eventId: string): Promise<Call> {
  await vi.waitFor(() => expect(eventIdsTo(dest)).toContain(eventId), { timeout: 5000, interval: 10 });
  return calls.find((c) => c.url === dest.url && JSON.parse(c.body).id === eventId) as Call;
}

beforeEach(async () => {
  account = await createAccount();
  calls = captureFetch().calls;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the scheduled outbox sweep", () => {
  it("re-dispatches an event older than the five-minute grace that no consumer has taken; it is delivered signed, and the consumer marks it dispatched", async () => {
    const dest = await createDestination(account.testKey);
    const eventId = await insertUndispatched(6 * MINUTE);
    expect(await dispatchedAt(eventId)).toBeNull();

    await runCron();
    const call = await expectDelivered(dest, eventId);
    expect(await dispatchedAt(eventId)).not.toBeNull();
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({ id: eventId, object: "event", type: "customer.created", live: false });
    expect(body).not.toHaveProperty("data");
    const signature = parseSignature(call.headers.get("service-signature"));
    expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call.body}`));
  });

  it("leaves events younger than five minutes alone, and picks them up once they are five minutes old", async () => {
    const clock = useClock(Date.now());
    const dest = await createDestination(account.testKey);
    const young = await insertUndispatched(5 * MINUTE - SECOND);
    const old = await insertUndispatched(5 * MINUTE + SECOND);

    await runCron();
    await expectDelivered(dest, old);
    // Negative: the young event must not be sent along with the old one.
    await waitOutStrays();
    expect(eventIdsTo(dest)).not.toContain(young);
    expect(await dispatchedAt(young)).toBeNull();

    clock.advance(2 * SECOND);
    await runCron();
    await expectDelivered(dest, young);
    expect(await dispatchedAt(young)).not.toBeNull();
  });

  it("an event the sweep queued that no consumer has taken yet (a queue backlog) is never queued by the sweep again", async () => {
    const clock = useClock(Date.now());
    const sent = vi
      .spyOn(env.WEBHOOKS as Queue<DeliveryMessage>, "sendBatch")
      .mockResolvedValue({} as QueueSendBatchResponse);
    await createDestination(account.testKey);
    const eventId = await insertUndispatched(6 * MINUTE);
    const sends = () =>
      sent.mock.calls
        .flatMap(([messages]) => [...messages].map((m) => m.body.event_id))
        .filter((id) => id === eventId);

    await runCron();
    expect(sends()).toEqual([eventId]);
    for (const minutes of [1, 5, 60]) {
      clock.advance(minutes * MINUTE);
      await runCron();
    }
    expect(sends()).toEqual([eventId]);
    expect(await dispatchedAt(eventId)).toBeNull();
  });

  it("does not re-dispatch events that were already dispatched", async () => {
    const dest = await createDestination(account.testKey);
    const done = await insertEvent(account.id, {
      ageMs: 10 * 60 * SECOND,
      dispatchedAt: new Date(nowMs() - 9 * 60 * SECOND).toISOString(),
    });
    const pending = await insertUndispatched(10 * 60 * SECOND);

    // An event dispatched by its own request, through the API (its consumer marks it). Not
    // `createCustomer`: it waits until no event is undispatched, and `pending` stays so until
    // the sweep below.
    expectStatus(await client(account.testKey).post("/v1/customers", validCustomer), 201);
    await vi.waitFor(() => expect(eventIdsTo(dest)).toHaveLength(1), { timeout: 5000 });
    const viaApi = eventIdsTo(dest)[0] as string;
    await vi.waitFor(async () => expect(await dispatchedAt(viaApi)).not.toBeNull(), { timeout: 5000 });
    const before = await dispatchedAt(done);

    await runCron();
    await expectDelivered(dest, pending);
    // Negative: `done` must not be sent again along with `pending`.
    await waitOutStrays();
    expect(eventIdsTo(dest).sort()).toEqual([pending, viaApi].sort());
    expect(await dispatchedAt(done)).toBe(before);
  });

  it("dispatches a swept event only to enabled destinations of its account and environment subscribed to its type", async () => {
    const subscribed = await createDestination(account.testKey, { enabled_events: ["customer.created"] });
    const otherType = await createDestination(account.testKey, { enabled_events: ["customer.deleted"] });
    const live = await createDestination(account.liveKey);
    const disabled = await createDestination(account.testKey);
    expectStatus(await client(account.testKey).post(`/v1/event-destinations/${disabled.id}/disable`), 200);
    const stranger = await createDestination((await createAccount()).testKey);
    const eventId = await insertUndispatched(5 * 60 * SECOND);

    await runCron();
    await expectDelivered(subscribed, eventId);
    // Negative: no other destination may receive what `subscribed` received.
    await waitOutStrays();
    for (const dest of [otherType, live, disabled, stranger]) expect(eventIdsTo(dest)).toEqual([]);
  });

  it("a resend of an event whose fan-out was cut short does not mark it: the sweep still reaches the other destinations", async () => {
    const resent = await createDestination(account.testKey);
    const other = await createDestination(account.testKey);
    const eventId = await insertUndispatched(6 * MINUTE);
    const res = await client(account.testKey).post(`/v1/event-destinations/${resent.id}/resend`, {
      event: eventId,
    });
    expectStatus(res, 200);
    await expectDelivered(resent, eventId);
    expect(await dispatchedAt(eventId)).toBeNull();

    await runCron();
    await expectDelivered(other, eventId);
    expect(await dispatchedAt(eventId)).not.toBeNull();
  });

  it("a swept event with no subscribed destination is marked dispatched and not swept again", async () => {
    const eventId = await insertUndispatched(5 * 60 * SECOND, { live: true });
    await runCron();
    const first = await dispatchedAt(eventId);
    expect(first).not.toBeNull();
    await runCron();
    expect(await dispatchedAt(eventId)).toBe(first);
  });
});

describe("the sweep under a backlog", () => {
  it("drains a backlog larger than one run (200 events) and than one D1 statement's parameters over successive runs", async () => {
    const dest = await createDestination(account.testKey);
    const ids = await insertEvents(account.id, 250, { ageMs: 5 * 60 * SECOND, dispatchedAt: null });
    const undispatched = async () =>
      (
        await env.DB.prepare(
          "SELECT id FROM events WHERE account_id = ? AND dispatched_at IS NULL ORDER BY id",
        )
          .bind(account.id)
          .all<{ id: string }>()
      ).results.map((r) => r.id);

    await runCron();
    // Oldest first, at most 200 a run; the consumer marks what it takes.
    await vi.waitFor(async () => expect(await undispatched()).toEqual(ids.slice(200)), {
      timeout: 15_000,
      interval: 20,
    });
    await runCron();
    await vi.waitFor(async () => expect(await undispatched()).toEqual([]), { timeout: 15_000, interval: 20 });
    await vi.waitFor(() => expect(new Set(eventIdsTo(dest)).size).toBe(250), {
      timeout: 15_000,
      interval: 20,
    });
    expect(new Set(eventIdsTo(dest))).toEqual(new Set(ids));
  });
});
