/**
 * The outbox decision made in the write's own transaction: an event of an account and
 * environment without an enabled destination is written already dispatched (nothing to
 * queue, no further D1 round trip); otherwise it waits for dispatch.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAccount } from "../helpers/accounts";
import { client, expectStatus } from "../helpers/api";

const customer = { name: "Outbox SL", tax_id: { country: "ES", type: "es_nif", value: "B12345674" } };

async function eventFor(objectId: string) {
  return env.DB.prepare("SELECT created_at, dispatched_at FROM events WHERE related_object_id = ?")
    .bind(objectId)
    .first<{ created_at: string; dispatched_at: string | null }>();
}

afterEach(() => vi.restoreAllMocks());

describe("events are born dispatched when nobody listens", () => {
  it("an event of an environment without an enabled destination is written already dispatched", async () => {
    const account = await createAccount();
    const res = await client(account.testKey).post("/v1/customers", customer);
    expectStatus(res, 201);
    const event = await eventFor(res.body.id);
    expect(event?.dispatched_at).toBe(event?.created_at);
  });

  it("a destination of the other environment, or a disabled one, does not count", async () => {
    const account = await createAccount();
    const live = client(account.liveKey);
    const test = client(account.testKey);
    expectStatus(
      await live.post("/v1/event-destinations", {
        name: "l",
        url: "https://hooks.example.com/l",
        enabled_events: ["*"],
      }),
      201,
    );
    const disabled = await test.post("/v1/event-destinations", {
      name: "t",
      url: "https://hooks.example.com/t",
      enabled_events: ["*"],
    });
    expectStatus(await test.post(`/v1/event-destinations/${disabled.body.id}/disable`), 200);
    const res = await test.post("/v1/customers", customer);
    expect((await eventFor(res.body.id))?.dispatched_at).not.toBeNull();
  });

  it("with an enabled destination the event waits for dispatch, which queues it and marks it", async () => {
    const sent = vi.spyOn(env.WEBHOOKS, "sendBatch");
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("ok"));
    const account = await createAccount();
    const api = client(account.testKey);
    expectStatus(
      await api.post("/v1/event-destinations", {
        name: "t",
        url: "https://hooks.example.com/t",
        enabled_events: ["*"],
      }),
      201,
    );
    const res = await api.post("/v1/customers", customer);
    await vi.waitFor(async () => expect((await eventFor(res.body.id))?.dispatched_at).not.toBeNull());
    expect(sent).toHaveBeenCalled();
  });
});
