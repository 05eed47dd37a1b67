/**
 * The circuit breaker per destination and the cap on one account's attempts in flight
 * (src/webhooks/circuit.ts), the consumer called directly on batches; the write's first
 * attempts; and the sweep taking accounts in turn.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import { ACCOUNT_LEASES, CIRCUIT_MIN_MS } from "../../../src/webhooks/circuit";
import { sweepUndispatched } from "../../../src/webhooks/sweep";
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
import { type Call, captureFetch, runQueue, waitOutStrays } from "../../helpers/webhooks";

let account: TestAccount;
let calls: Call[];
let status: number;

const message = async (destinationId: string, attempt = 1): Promise<{ body: DeliveryMessage }> => ({
  body: { event_id: await insertEvent(account.id), destination_id: destinationId, attempt },
});
const circuit = (id: string) =>
  env.DB.prepare("SELECT failing_since, circuit_until, lease_until FROM event_destinations WHERE id = ?")
    .bind(id)
    .first<{ failing_since: string | null; circuit_until: string | null; lease_until: string | null }>();

beforeEach(async () => {
  account = await createAccount();
  status = 500;
  calls = captureFetch(() => new Response("x", { status })).calls;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the circuit breaker per destination", () => {
  it("a failed attempt opens the circuit: the destination's next messages are held until it closes, without an attempt", async () => {
    const dest = await createDestination(account.testKey);
    const clock = useClock(Date.now());
    await runQueue([await message(dest.id)]);
    expect(calls).toHaveLength(1);
    expect(await circuit(dest.id)).toMatchObject({
      circuit_until: new Date(clock.now() + CIRCUIT_MIN_MS).toISOString(),
      lease_until: null,
    });

    clock.advance(CIRCUIT_MIN_MS / 2);
    const next = await message(dest.id, 2);
    const { result, held, sent } = await runQueue([next]);
    expect(calls).toHaveLength(1);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(sent).toEqual([]);
    // Held until the circuit closes (15 s on), spread by up to a fifth; the attempt number stays.
    expect(held).toHaveLength(1);
    expect(held[0]?.body).toMatchObject(next.body);
    expect(held[0]?.delaySeconds).toBeGreaterThanOrEqual(15);
    expect(held[0]?.delaySeconds).toBeLessThanOrEqual(18);
  });

  it("while a destination fails, one attempt is in flight: of a batch's messages one probes, the others are held", async () => {
    const dest = await createDestination(account.testKey);
    const clock = useClock(Date.now());
    await runQueue([await message(dest.id)]);
    clock.advance(CIRCUIT_MIN_MS);

    const { result, held } = await runQueue([
      await message(dest.id),
      await message(dest.id),
      await message(dest.id),
    ]);
    expect(calls).toHaveLength(2);
    expect(held).toHaveLength(2);
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2", "m3"]);
    // The probe failed: the circuit is open again, for as long as it has failed (at least 30 s).
    expect((await circuit(dest.id))?.lease_until).toBeNull();
    expect(Date.parse((await circuit(dest.id))?.circuit_until as string)).toBe(clock.now() + CIRCUIT_MIN_MS);
  });

  it("a second consumer finds the lease held: no attempt while the probe is in flight", async () => {
    const dest = await createDestination(account.testKey);
    const clock = useClock(Date.now());
    await runQueue([await message(dest.id)]);
    clock.advance(CIRCUIT_MIN_MS);
    await env.DB.prepare("UPDATE event_destinations SET lease_until = ? WHERE id = ?")
      .bind(new Date(clock.now() + 10_000).toISOString(), dest.id)
      .run();
    const { held } = await runQueue([await message(dest.id)]);
    expect(calls).toHaveLength(1);
    expect(held).toHaveLength(1);
  });

  it("a successful probe closes the circuit and ends the streak: the next messages are attempted freely", async () => {
    const dest = await createDestination(account.testKey);
    const clock = useClock(Date.now());
    await runQueue([await message(dest.id)]);
    clock.advance(CIRCUIT_MIN_MS);
    status = 200;
    await runQueue([await message(dest.id)]);
    expect(await circuit(dest.id)).toEqual({ failing_since: null, circuit_until: null, lease_until: null });
    const { held } = await runQueue([await message(dest.id), await message(dest.id)]);
    expect(held).toEqual([]);
    expect(calls).toHaveLength(4);
  });

  it("enabling a destination closes its circuit", async () => {
    const dest = await createDestination(account.testKey);
    await runQueue([await message(dest.id)]);
    const api = client(account.testKey);
    expectStatus(await api.post(`/v1/event-destinations/${dest.id}/disable`), 200);
    expectStatus(await api.post(`/v1/event-destinations/${dest.id}/enable`), 200);
    expect((await circuit(dest.id))?.circuit_until).toBeNull();
  });
});

describe("a cap on one account's attempts in flight", () => {
  it(`an account with an open circuit holds at most ${ACCOUNT_LEASES} leases: its other destinations' attempts beyond them are held`, async () => {
    const broken = await createDestination(account.testKey);
    await runQueue([await message(broken.id)]);
    const others = [];
    for (let i = 0; i < ACCOUNT_LEASES + 2; i++) others.push(await createDestination(account.testKey));
    status = 200;
    const { held } = await runQueue(await Promise.all(others.map((d) => message(d.id))));
    expect(calls).toHaveLength(1 + ACCOUNT_LEASES);
    expect(held).toHaveLength(2);
    // Each success gave its lease back.
    for (const d of others) expect((await circuit(d.id))?.lease_until).toBeNull();
  });

  it("another account's destinations claim nothing: its attempts are not capped by the suspect account", async () => {
    const broken = await createDestination(account.testKey);
    await runQueue([await message(broken.id)]);
    const other = await createAccount();
    status = 200;
    const messages = [];
    for (let i = 0; i < ACCOUNT_LEASES + 2; i++) {
      const d = await createDestination(other.testKey);
      messages.push({ body: { event_id: await insertEvent(other.id), destination_id: d.id, attempt: 1 } });
    }
    const { held } = await runQueue(messages);
    expect(held).toEqual([]);
    expect(calls).toHaveLength(1 + ACCOUNT_LEASES + 2);
  });

  it("one account holds at most 3 of an invocation's 6 connections; a message that waits 2 s for one is held, not queued behind slow receivers", async () => {
    const slow = [];
    for (let i = 0; i < 4; i++) slow.push(await createDestination(account.testKey));
    const other = await createAccount();
    const fast = await createDestination(other.testKey, { url: "https://fast.example.com/hook" });
    let inFlight = 0;
    let most = 0;
    const fastAt: number[] = [];
    captureFetch(async (call) => {
      if (call.url === fast.url) {
        fastAt.push(Date.now());
        return new Response("ok");
      }
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      inFlight--;
      return new Response("ok");
    });
    const started = Date.now();
    const { held } = await runQueue([
      ...(await Promise.all(slow.map((d) => message(d.id)))),
      { body: { event_id: await insertEvent(other.id), destination_id: fast.id, attempt: 1 } },
    ]);
    expect(most).toBe(3);
    expect(held.map((h) => h.body.destination_id)).toEqual([slow[3]?.id]);
    // The other account's delivery did not wait for the slow ones.
    expect((fastAt[0] as number) - started).toBeLessThan(1000);
  });
});

describe("the write's first attempts", () => {
  it("while one of an account's destinations has its circuit open, the write attempts none itself: its deliveries go through the queue, whose consumer leases them", async () => {
    const broken = await createDestination(account.testKey, { url: "https://broken.example.com/hook" });
    const healthy = await createDestination(account.testKey, { url: "https://healthy.example.com/hook" });
    await runQueue([await message(broken.id)]);
    calls.length = 0;
    const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
    const queued = vi.spyOn(producer, "sendBatch").mockResolvedValue({} as QueueSendBatchResponse);

    expectStatus(await client(account.testKey).post("/v1/customers", validCustomer), 201);
    await vi.waitFor(() => expect(queued).toHaveBeenCalled());
    const bodies = queued.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
    expect(bodies.map((b) => b.destination_id).sort()).toEqual([broken.id, healthy.id].sort());
    expect(bodies.every((b) => b.attempt === 1 && b.fan_out === true)).toBe(true);
    await waitOutStrays();
    expect(calls).toEqual([]);
  });

  it("another account's write still makes its own first attempts", async () => {
    const broken = await createDestination(account.testKey);
    await runQueue([await message(broken.id)]);
    const other = await createAccount();
    const dest = await createDestination(other.testKey, { url: "https://other.example.com/hook" });
    status = 200;
    expectStatus(await client(other.testKey).post("/v1/customers", validCustomer), 201);
    await vi.waitFor(() => expect(calls.map((c) => c.url)).toContain(dest.url));
  });
});

describe("the sweep takes accounts in turn", () => {
  it("one account's backlog of 300 stale events does not hold back another account's newer one", async () => {
    const other = await createAccount();
    await createDestination(account.testKey);
    await createDestination(other.testKey);
    const producer = env.WEBHOOKS as Queue<DeliveryMessage>;
    const queued = vi.spyOn(producer, "sendBatch").mockResolvedValue({} as QueueSendBatchResponse);
    await insertEvents(account.id, 300, { ageMs: 60 * 60_000, dispatchedAt: null });
    const late = await insertEvent(other.id, { ageMs: 6 * 60_000, dispatchedAt: null });

    expect(await sweepUndispatched(env)).toBe(101);
    const order = queued.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body.event_id));
    // In turn: the other account's event is second in line, so in the first group of ten the
    // sweep sends side by side (without turns it would be the 301st, left for a later run).
    expect(order.slice(0, 10)).toContain(late);
  });
});
