/**
 * The 24-hour rule: a destination whose attempts all failed for 24 hours, measured from
 * the first failure after its last success, is disabled. The consumer is called directly
 * with message batches and a controlled clock.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createDestination, insertEvent, type TestAccount } from "../../helpers/factories";
import { type Call, captureFetch, runQueue } from "../../helpers/webhooks";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** In the past, so that ids made under the moved clock stay behind real time. */
const T = Date.UTC(2025, 5, 1, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

let account: TestAccount;
let api: ApiClient;
let requests: Call[];
let status: number;

/**
 * Delivers one new event to `destinationId` through the consumer at the current clock, as
 * the receiver's attempt `attempt`. `retried`: a next attempt was queued (the message itself
 * is then acked); `acked`: the delivery is over.
 */
async function deliver(destinationId: string, attempt = 1) {
  const body = { event_id: await insertEvent(account.id), destination_id: destinationId, attempt };
  const { result, retries, sent, held } = await runQueue([{ body }]);
  // Held by the circuit breaker (not attempted) counts as retried: the delivery goes on.
  const retried = sent.length + held.length > 0 || (retries[0]?.mock.calls.length ?? 0) > 0;
  return { acked: result.explicitAcks.includes("m1") && !retried, retried };
}

async function destinationRow(id: string) {
  return env.DB.prepare("SELECT status, disabled_reason, failing_since FROM event_destinations WHERE id = ?")
    .bind(id)
    .first<{ status: string; disabled_reason: string | null; failing_since: string | null }>();
}

beforeEach(async () => {
  account = await createAccount();
  api = client(account.testKey);
  status = 500;
  requests = captureFetch(() => new Response(status === 204 ? null : "x", { status })).calls;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("disabling a destination after 24 hours of failures", () => {
  it("a first failure at T starts the streak, T+23h59m stays enabled, T+24h disables it and acks the message", async () => {
    const { id: dest } = await createDestination(api);

    const clock = useClock(T);
    expect(await deliver(dest)).toEqual({ acked: false, retried: true });
    expect(await destinationRow(dest)).toEqual({
      status: "enabled",
      disabled_reason: null,
      failing_since: iso(T),
    });

    clock.set(T + 12 * HOUR);
    expect(await deliver(dest, 3)).toEqual({ acked: false, retried: true });
    // The streak is measured from its first failure.
    expect((await destinationRow(dest))?.failing_since).toBe(iso(T));

    clock.set(T + 24 * HOUR - MINUTE);
    expect(await deliver(dest, 2)).toEqual({ acked: false, retried: true });
    expect(await destinationRow(dest)).toMatchObject({ status: "enabled", disabled_reason: null });

    // That failure opened the circuit for 10 minutes (its longest): a message at T+24h is
    // held, not attempted; the first attempt after it closes disables the destination.
    clock.set(T + 24 * HOUR);
    expect(await deliver(dest, 4)).toEqual({ acked: false, retried: true });
    expect(requests).toHaveLength(3);
    clock.set(T + 24 * HOUR + 10 * MINUTE);
    expect(await deliver(dest, 4)).toEqual({ acked: true, retried: false });
    expect(await destinationRow(dest)).toMatchObject({
      status: "disabled",
      disabled_reason: "delivery_failures",
    });
    expect(requests).toHaveLength(4);

    const read = await api.get(`/v1/event-destinations/${dest}`);
    expect(read.body).toMatchObject({ status: "disabled", disabled_reason: "delivery_failures" });
  });

  it("once disabled by failures, further messages are acked without a request", async () => {
    const { id: dest } = await createDestination(api);
    const clock = useClock(T);
    await deliver(dest);
    clock.set(T + 24 * HOUR);
    await deliver(dest);
    expect((await destinationRow(dest))?.status).toBe("disabled");
    const before = requests.length;

    clock.set(T + 25 * HOUR);
    status = 200;
    expect(await deliver(dest, 2)).toEqual({ acked: true, retried: false });
    expect(requests).toHaveLength(before);
  });

  it("a success resets the streak: failure at T, success at T+1h, failure at T+24h leaves it enabled", async () => {
    const { id: dest } = await createDestination(api);
    const clock = useClock(T);
    await deliver(dest);
    expect((await destinationRow(dest))?.failing_since).toBe(iso(T));

    clock.set(T + HOUR);
    status = 200;
    expect(await deliver(dest)).toEqual({ acked: true, retried: false });
    expect((await destinationRow(dest))?.failing_since).toBeNull();

    clock.set(T + 24 * HOUR);
    status = 500;
    expect(await deliver(dest)).toEqual({ acked: false, retried: true });
    expect(await destinationRow(dest)).toEqual({
      status: "enabled",
      disabled_reason: null,
      failing_since: iso(T + 24 * HOUR),
    });

    // The new streak runs from T+24h: it disables 24 hours after that, not before.
    clock.set(T + 48 * HOUR - 10 * MINUTE);
    await deliver(dest);
    expect((await destinationRow(dest))?.status).toBe("enabled");
    clock.set(T + 48 * HOUR);
    expect(await deliver(dest)).toEqual({ acked: true, retried: false });
    expect((await destinationRow(dest))?.status).toBe("disabled");
  });

  it("enabling clears the streak, and new events are delivered again", async () => {
    const { id: dest } = await createDestination(api);
    const clock = useClock(T);
    await deliver(dest);
    clock.set(T + 24 * HOUR);
    await deliver(dest);
    expect((await destinationRow(dest))?.disabled_reason).toBe("delivery_failures");

    clock.set(T + 30 * HOUR);
    const enabled = await api.post(`/v1/event-destinations/${dest}/enable`);
    expectStatus(enabled, 200);
    expect(enabled.body).toMatchObject({ status: "enabled", disabled_reason: null });
    expect(await destinationRow(dest)).toEqual({
      status: "enabled",
      disabled_reason: null,
      failing_since: null,
    });

    // A failure right after enabling starts a new streak instead of disabling it again.
    clock.set(T + 30 * HOUR + MINUTE);
    expect(await deliver(dest)).toEqual({ acked: false, retried: true });
    expect(await destinationRow(dest)).toEqual({
      status: "enabled",
      disabled_reason: null,
      failing_since: iso(T + 30 * HOUR + MINUTE),
    });

    const before = requests.length;
    clock.set(T + 31 * HOUR);
    status = 204;
    expect(await deliver(dest)).toEqual({ acked: true, retried: false });
    expect(requests).toHaveLength(before + 1);
    expect((await destinationRow(dest))?.failing_since).toBeNull();
  });

  it("enabling a destination that is already enabled does not restart its failing streak", async () => {
    const { id: dest } = await createDestination(api);
    const clock = useClock(T);
    await deliver(dest);
    clock.set(T + 23 * HOUR);
    expectStatus(await api.post(`/v1/event-destinations/${dest}/enable`), 200);
    expect((await destinationRow(dest))?.failing_since).toBe(iso(T));
    clock.set(T + 24 * HOUR);
    expect(await deliver(dest)).toEqual({ acked: true, retried: false });
    expect((await destinationRow(dest))?.status).toBe("disabled");
  });

  it("the streak of one destination does not affect another", async () => {
    const { id: failing } = await createDestination(api);
    const { id: healthy } = await createDestination(api);
    const clock = useClock(T);
    await deliver(failing);
    clock.set(T + 24 * HOUR);
    await deliver(failing);
    expect((await destinationRow(failing))?.status).toBe("disabled");
    expect(await destinationRow(healthy)).toEqual({
      status: "enabled",
      disabled_reason: null,
      failing_since: null,
    });
  });

  it("a destination disabled on request keeps disabled_reason requested when a pending retry arrives", async () => {
    const { id: dest } = await createDestination(api);
    const clock = useClock(T);
    await deliver(dest);
    expectStatus(await api.post(`/v1/event-destinations/${dest}/disable`), 200);
    clock.set(T + 25 * HOUR);
    expect(await deliver(dest, 2)).toEqual({ acked: true, retried: false });
    expect(await destinationRow(dest)).toMatchObject({ status: "disabled", disabled_reason: "requested" });
  });
});
