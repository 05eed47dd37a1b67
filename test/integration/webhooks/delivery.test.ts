/**
 * End to end: API write → event → the real local queue → the configured consumer → a
 * mocked outbound `fetch`. The consumer runs in this isolate, so the spy sees its requests.
 */

import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer, createDestination, createInstruction } from "../../helpers/factories";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import type { Customer } from "../../helpers/types";
import {
  type Call,
  captureFetch,
  deliveryAttempts,
  dispatchedAt,
  waitOutStrays,
} from "../../helpers/webhooks";

let calls: Call[] = [];

beforeEach(() => {
  calls = captureFetch().calls;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const callsTo = (destination: { url: string }) => calls.filter((c) => c.url === destination.url);
const typesTo = (destination: { url: string }) =>
  callsTo(destination)
    .map((c) => JSON.parse(c.body).type as string)
    .sort();

/** Waits until `destination` has received `count` requests. */
async function expectCalls(destination: { url: string }, count: number): Promise<Call[]> {
  await vi.waitFor(() => expect(callsTo(destination).length).toBeGreaterThanOrEqual(count), {
    timeout: 5000,
    interval: 10,
  });
  return callsTo(destination);
}

/**
 * Before a negative assertion: waits until every event is dispatched, then out the time in
 * which a request that a wrong implementation sent next to the positive control would arrive.
 */
async function quiet(): Promise<void> {
  await afterResponses();
  await waitOutStrays();
}

describe("webhook delivery, end to end through the queue", () => {
  it("the body is exactly the event without data, POSTed as application/json", async () => {
    const api = client((await createAccount()).testKey);
    const dest = await createDestination(api);
    const customer = await createCustomer(api);
    const [call] = await expectCalls(dest, 1);
    if (!call) throw new Error("no call");

    expect(call.init.method).toBe("POST");
    expect(call.headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.parse(call.body);
    expect(Object.keys(body).sort()).toEqual([
      "created_at",
      "id",
      "live",
      "object",
      "related_object",
      "type",
    ]);
    const event = await api.get(`/v1/events/${body.id}`);
    expectStatus(event, 200);
    const { data, ...thin } = event.body;
    expect((data.object as Customer).id).toBe(customer.id);
    expect(body).toEqual(thin);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type: "customer.created",
      live: false,
      created_at: event.body.created_at,
      related_object: { id: customer.id, type: "customer", url: `/v1/customers/${customer.id}` },
    });
  });

  it("Service-Signature is t=<unix seconds>,v1=<HMAC-SHA256 of t.body keyed by the whole secret string>", async () => {
    const api = client((await createAccount()).testKey);
    const dest = await createDestination(api, { enabled_events: ["customer.created"] });
    await createCustomer(api);
    const [call] = await expectCalls(dest, 1);
    if (!call) throw new Error("no call");

    const header = call.headers.get("service-signature");
    const signature = parseSignature(header);
    if (!signature) throw new Error(`malformed Service-Signature: ${header}`);
    const { t, v1 } = signature;
    expect(Math.abs(t - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(300);
    expect(v1).toBe(await referenceHmac(dest.secret, `${t}.${call.body}`));
    // Keyed by the secret string itself, prefix included: not by the part after whsec_.
    expect(v1).not.toBe(await referenceHmac(dest.secret.slice("whsec_".length), `${t}.${call.body}`));
    // Another destination's secret does not verify it.
    const other = await createDestination(api);
    expect(v1).not.toBe(await referenceHmac(other.secret, `${t}.${call.body}`));
  });

  it("the delivery is recorded as a succeeded attempt and the event is marked dispatched", async () => {
    const api = client((await createAccount()).testKey);
    const dest = await createDestination(api);
    await createCustomer(api);
    const [call] = await expectCalls(dest, 1);
    const eventId = JSON.parse(call?.body ?? "{}").id;
    await vi.waitFor(
      async () => {
        expect(await deliveryAttempts(dest.id)).toEqual([
          expect.objectContaining({
            event_id: eventId,
            attempt: 1,
            outcome: "succeeded",
            status_code: 200,
            error: null,
          }),
        ]);
      },
      { timeout: 5000, interval: 10 },
    );
    expect(await dispatchedAt(eventId)).not.toBeNull();
  });

  it("a destination receives only the types in enabled_events, and * receives all", async () => {
    const api = client((await createAccount()).testKey);
    const onlyCreated = await createDestination(api, { enabled_events: ["customer.created"] });
    const updatedDeleted = await createDestination(api, {
      enabled_events: ["customer.updated", "customer.deleted"],
    });
    const instructions = await createDestination(api, { enabled_events: ["payment_instruction.created"] });
    const unrelated = await createDestination(api, { enabled_events: ["invoice.issued"] });
    const all = await createDestination(api, { enabled_events: ["*"] });

    const customer = await createCustomer(api);
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, { name: "Renamed" }), 200);
    expectStatus(await api.del(`/v1/customers/${customer.id}`), 204);
    await createInstruction(api);

    await expectCalls(all, 4);
    await expectCalls(onlyCreated, 1);
    await expectCalls(updatedDeleted, 2);
    await expectCalls(instructions, 1);
    await quiet();

    expect(typesTo(all)).toEqual([
      "customer.created",
      "customer.deleted",
      "customer.updated",
      "payment_instruction.created",
    ]);
    expect(typesTo(onlyCreated)).toEqual(["customer.created"]);
    expect(typesTo(updatedDeleted)).toEqual(["customer.deleted", "customer.updated"]);
    expect(typesTo(instructions)).toEqual(["payment_instruction.created"]);
    expect(callsTo(unrelated)).toEqual([]);
  });

  it("a disabled destination receives nothing, and after enable it receives new events", async () => {
    const api = client((await createAccount()).testKey);
    const disabled = await createDestination(api);
    const control = await createDestination(api);
    expectStatus(await api.post(`/v1/event-destinations/${disabled.id}/disable`), 200);

    await createCustomer(api);
    await expectCalls(control, 1);
    await quiet();
    expect(callsTo(disabled)).toEqual([]);

    expectStatus(await api.post(`/v1/event-destinations/${disabled.id}/enable`), 200);
    const second = await createCustomer(api);
    const [call] = await expectCalls(disabled, 1);
    await expectCalls(control, 2);
    await quiet();
    expect(callsTo(disabled)).toHaveLength(1);
    expect(JSON.parse(call?.body ?? "{}").related_object.id).toBe(second.id);
  });

  it("test events never go to live destinations, and live events never go to test destinations", async () => {
    const account = await createAccount();
    const testApi = client(account.testKey);
    const liveApi = client(account.liveKey);
    const testDest = await createDestination(testApi);
    const liveDest = await createDestination(liveApi);
    expect(testDest.live).toBe(false);
    expect(liveDest.live).toBe(true);

    const testCustomer = await createCustomer(testApi);
    await expectCalls(testDest, 1);
    const liveCustomer = await createCustomer(liveApi);
    await expectCalls(liveDest, 1);
    await quiet();

    expect(callsTo(testDest).map((c) => JSON.parse(c.body))).toEqual([
      expect.objectContaining({
        live: false,
        related_object: expect.objectContaining({ id: testCustomer.id }),
      }),
    ]);
    expect(callsTo(liveDest).map((c) => JSON.parse(c.body))).toEqual([
      expect.objectContaining({
        live: true,
        related_object: expect.objectContaining({ id: liveCustomer.id }),
      }),
    ]);
  });

  it("another account's destination receives nothing", async () => {
    const api = client((await createAccount()).testKey);
    const strangerApi = client((await createAccount()).testKey);
    const mine = await createDestination(api);
    const theirs = await createDestination(strangerApi);
    await createCustomer(api);
    await expectCalls(mine, 1);
    await quiet();
    expect(callsTo(theirs)).toEqual([]);
  });

  it("a destination deleted before an event is not delivered to", async () => {
    const api = client((await createAccount()).testKey);
    const deleted = await createDestination(api);
    const control = await createDestination(api);
    expectStatus(await api.del(`/v1/event-destinations/${deleted.id}`), 204);
    await createCustomer(api);
    await expectCalls(control, 1);
    await quiet();
    expect(callsTo(deleted)).toEqual([]);
  });

  it("a message already queued for a destination that is deleted before delivery makes no request", async () => {
    const api = client((await createAccount()).testKey);
    const deleted = await createDestination(api);
    const control = await createDestination(api, { enabled_events: ["customer.created"] });
    // The event exists; its regular dispatch is done before the deletion.
    await createCustomer(api);
    const [first] = await expectCalls(control, 1);
    await expectCalls(deleted, 1);
    await quiet();
    const eventId = JSON.parse(first?.body ?? "{}").id as string;

    expectStatus(await api.del(`/v1/event-destinations/${deleted.id}`), 204);
    // What a sweep or a redelivery could still have on the queue for it, next to a live one.
    await env.WEBHOOKS.sendBatch([
      { body: { event_id: eventId, destination_id: deleted.id } },
      { body: { event_id: eventId, destination_id: control.id } },
    ]);
    await expectCalls(control, 2);
    // Negative: the deleted destination's message, sent in the same batch as the control's,
    // must make no request and record no attempt.
    await waitOutStrays();
    expect(callsTo(deleted)).toHaveLength(1);
    expect(await deliveryAttempts(deleted.id)).toHaveLength(1);
  });
});
