/**
 * POST /v1/event-destinations/{id}/ping: a signed test event to one destination, end to end
 * through the real `webhook-deliveries` queue and its consumer to a mocked receiver.
 */

import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { verify } from "../../../scripts/receiver.mjs";
import { retryDelayAfter } from "../../../src/webhooks/config";
import { afterResponses } from "../../helpers/after-response";
import { expectStatus, request } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createDestination } from "../../helpers/factories";
import { listEvents, readDestination } from "../../helpers/reads";
import { describeAuthMatrix, expectError } from "../../helpers/security";
import { expectedSignatures, parseSignatures } from "../../helpers/signature";
import type { Event } from "../../helpers/types";
import {
  expectAttemptRows,
  expectCallsTo,
  holdRetries,
  listAttempts,
  receiverPerTest,
  waitOutStrays,
} from "../../helpers/webhooks";

const t = receiverPerTest();

async function ping(id: string, headers: Record<string, string> = {}) {
  const res = await request("POST", `/v1/event-destinations/${id}/ping`, undefined, {
    key: t.account.testKey,
    headers,
  });
  expectStatus(res, 200);
  return { event: res.body as unknown as Event, res };
}

describe("ping", () => {
  it("sends a signed event_destination.ping to that destination only, whatever its enabled_events", async () => {
    const target = await createDestination(t.api, { enabled_events: ["customer.created"] });
    const everything = await createDestination(t.api, { enabled_events: ["*"] });
    const { event } = await ping(target.id);

    const [call] = await expectCallsTo(t.calls, target.url, 1);
    if (!call) throw new Error("no call");
    const { data, ...thin } = event;
    expect(JSON.parse(call.body)).toEqual(thin);
    expect(thin).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type: "event_destination.ping",
      live: false,
      created_at: expect.any(String),
      related_object: {
        id: target.id,
        type: "event_destination",
        url: `/v1/event-destinations/${target.id}`,
      },
    });
    const header = call.headers.get("service-signature");
    const signature = parseSignatures(header);
    expect(signature?.v1).toEqual(await expectedSignatures([target.secret], signature?.t ?? 0, call.body));
    expect(verify(header, call.body, target.secret)).toBe(true);

    await waitOutStrays();
    expect(t.callsTo(everything.url)).toEqual([]);
  });

  it("is recorded in the destination's delivery log as attempt 1 of its own delivery", async () => {
    const dest = await createDestination(t.api);
    const { event } = await ping(dest.id);
    await expectAttemptRows(dest.id, 1);
    expect((await listAttempts(t.api, dest.id)).data).toEqual([
      expect.objectContaining({ event: event.id, attempt: 1, outcome: "succeeded", status_code: 200 }),
    ]);
  });

  it("is an event like any other: GET /v1/events shows it, with the destination but not its secret", async () => {
    const dest = await createDestination(t.api);
    const { event } = await ping(dest.id);
    const read = await t.api.get(`/v1/events/${event.id}`);
    expectStatus(read, 200);
    expect(read.body).toEqual(event);
    const { secret: _, ...withoutSecret } = dest;
    expect(read.body.data.object).toEqual(withoutSecret);
    expect(read.text).not.toContain(dest.secret);
    const listed = await listEvents(t.api, "?type=event_destination.ping");
    expect(listed.data.map((e) => e.id)).toEqual([event.id]);
  });

  it("a ping the receiver fails is retried like any delivery: attempt 2 after the first delay", async () => {
    const retries = holdRetries();
    const dest = await createDestination(t.api);
    t.respond = () => new Response("down", { status: 503 });
    const { event } = await ping(dest.id);
    await vi.waitFor(() => expect(retries).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(retries).toEqual([
      {
        body: { event_id: event.id, destination_id: dest.id, attempt: 2, shard: "DB" },
        delaySeconds: retryDelayAfter(env, 1),
      },
    ]);
    expect((await listAttempts(t.api, dest.id)).data).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "failed", status_code: 503 }),
    ]);
  });

  it("a disabled destination cannot be pinged: 409 resource_conflict, and nothing is written or sent", async () => {
    const dest = await createDestination(t.api);
    expectStatus(await t.api.post(`/v1/event-destinations/${dest.id}/disable`), 200);
    const events = await countRows("events", t.account.id);
    expectError(await t.api.post(`/v1/event-destinations/${dest.id}/ping`), 409, "resource_conflict");
    expect(await countRows("events", t.account.id)).toBe(events);
    await waitOutStrays();
    expect(t.callsTo(dest.url)).toEqual([]);
  });

  it("a ping that cannot be queued is a 500 that leaves no event behind", async () => {
    const dest = await createDestination(t.api);
    const events = await countRows("events", t.account.id);
    vi.spyOn(env.WEBHOOKS, "send").mockRejectedValueOnce(new Error("queue unavailable"));
    expectError(await t.api.post(`/v1/event-destinations/${dest.id}/ping`), 500, "api_error");
    expect(await countRows("events", t.account.id)).toBe(events);
    expect((await listEvents(t.api, "?type=event_destination.ping")).data).toEqual([]);
  });

  it("a ping retried with its Idempotency-Key is sent once and answers the same event", async () => {
    const dest = await createDestination(t.api);
    const control = await createDestination(t.api);
    const first = await ping(dest.id, { "Idempotency-Key": "ping-1" });
    const again = await ping(dest.id, { "Idempotency-Key": "ping-1" });
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.event).toEqual(first.event);

    await ping(control.id);
    await expectCallsTo(t.calls, control.url, 1);
    await afterResponses();
    await waitOutStrays();
    expect(t.callsTo(dest.url)).toHaveLength(1);
    expect((await listEvents(t.api, "?type=event_destination.ping")).data).toHaveLength(2);
  });
});

describeAuthMatrix({
  method: "POST",
  path: (id) => `/v1/event-destinations/${id}/ping`,
  create: async (key) => (await createDestination(key)).id,
  read: readDestination,
});
