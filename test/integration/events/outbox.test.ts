/**
 * The outbox decision made in the write's own transaction: an event that no enabled
 * destination of its account and environment subscribes to is written already dispatched
 * (nothing to queue, no further D1 round trip); otherwise it waits for dispatch.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, createDestination, validCustomer } from "../../helpers/factories";

// Customers are posted by hand, not with `createCustomer`: waiting for the dispatch would
// hide the state the write itself left the event in, which is what these tests look at.

async function eventFor(objectId: string) {
  return env.DB.prepare("SELECT created_at, dispatched_at FROM events WHERE related_object_id = ?")
    .bind(objectId)
    .first<{ created_at: string; dispatched_at: string | null }>();
}

afterEach(() => vi.restoreAllMocks());

describe("events are born dispatched when nobody listens", () => {
  it("an event of an environment without an enabled destination is written already dispatched", async () => {
    const account = await createAccount();
    const res = await client(account.testKey).post("/v1/customers", validCustomer);
    expectStatus(res, 201);
    const event = await eventFor(res.body.id);
    expect(event?.dispatched_at).toBe(event?.created_at);
  });

  it("a destination of the other environment, or a disabled one, does not count", async () => {
    const account = await createAccount();
    const test = client(account.testKey);
    await createDestination(account.liveKey);
    const disabled = await createDestination(test);
    expectStatus(await test.post(`/v1/event-destinations/${disabled.id}/disable`), 200);
    const res = await test.post("/v1/customers", validCustomer);
    expect((await eventFor(res.body.id))?.dispatched_at).not.toBeNull();
  });

  it("an enabled destination not subscribed to the event's type does not count; one subscribed to it, or to every type, does", async () => {
    const receiver = holdReceivers();
    const account = await createAccount();
    const api = client(account.testKey);
    await createDestination(api, { enabled_events: ["customer.updated", "invoice.issued"] });
    const unheard = await api.post("/v1/customers", validCustomer);
    expect((await eventFor(unheard.body.id))?.dispatched_at).not.toBeNull();

    for (const enabled_events of [["customer.created"], ["*"]]) {
      const other = await createAccount();
      const otherApi = client(other.testKey);
      await createDestination(otherApi, { enabled_events });
      const heard = await otherApi.post("/v1/customers", validCustomer);
      expect((await eventFor(heard.body.id))?.dispatched_at, enabled_events[0]).toBeNull();
    }
    receiver.release();
    await afterResponses();
    expect(receiver.calls()).toBe(2);
  });

  it("with an enabled destination the event waits for dispatch: the write's own fan-out makes the first attempt and marks it, with nothing queued", async () => {
    const sent = vi.spyOn(env.WEBHOOKS, "sendBatch");
    const receiver = holdReceivers();
    const account = await createAccount();
    const api = client(account.testKey);
    await createDestination(api, { enabled_events: ["customer.created"] });
    const res = await api.post("/v1/customers", validCustomer);
    expect((await eventFor(res.body.id))?.dispatched_at).toBeNull();
    receiver.release();
    await afterResponses();
    expect((await eventFor(res.body.id))?.dispatched_at).not.toBeNull();
    expect(receiver.calls()).toBe(1);
    expect(sent).not.toHaveBeenCalled();
  });
});

/** Receivers (mocked at fetch) that answer 200 only once released: a delivery is held in flight. `calls` counts customer.created deliveries. */
function holdReceivers() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const types: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
    types.push(JSON.parse(String(init?.body)).type);
    await held;
    return new Response("ok");
  });
  // Only customer.created: a "*" destination may also get the Tax ID check's event, in its own time.
  return { release, calls: () => types.filter((type) => type === "customer.created").length };
}
