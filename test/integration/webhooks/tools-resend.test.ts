/**
 * POST /v1/event-destinations/{id}/resend: one more delivery of a past event to one
 * destination, end to end through the real `webhook-deliveries` queue and its consumer.
 */

import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { retryDelayAfter } from "../../../src/webhooks/config";
import { afterResponses } from "../../helpers/after-response";
import { client, expectStatus, request } from "../../helpers/api";
import { createAccount, createCustomer, createDestination, insertEvent } from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
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

const resendPath = (id: string) => `/v1/event-destinations/${id}/resend`;

async function resend(
  id: string,
  event: string,
  options: { key?: string; headers?: Record<string, string> } = {},
) {
  const res = await request("POST", resendPath(id), { event }, { key: t.account.testKey, ...options });
  expectStatus(res, 200);
  return { event: res.body as unknown as Event, res };
}

/** A customer.created event delivered once to `dest`, and its id. */
async function deliveredEvent(dest: { id: string; url: string }): Promise<string> {
  await createCustomer(t.api);
  const [call] = await expectCallsTo(t.calls, dest.url, 1);
  await expectAttemptRows(dest.id, 1);
  return JSON.parse(call?.body ?? "{}").id;
}

describe("resend", () => {
  it("delivers the event once more, freshly signed, to that destination only", async () => {
    const dest = await createDestination(t.api, { enabled_events: ["customer.created"] });
    const other = await createDestination(t.api, { enabled_events: ["*"] });
    const eventId = await deliveredEvent(dest);
    await expectCallsTo(t.calls, other.url, 1);

    const { event } = await resend(dest.id, eventId);
    const stored = await t.api.get(`/v1/events/${eventId}`);
    expect(event).toEqual(stored.body);

    const [first, second] = await expectCallsTo(t.calls, dest.url, 2);
    expect(second?.body).toBe(first?.body);
    const signature = parseSignatures(second?.headers.get("service-signature") ?? null);
    expect(signature?.v1).toEqual(
      await expectedSignatures([dest.secret], signature?.t ?? 0, second?.body ?? ""),
    );
    await afterResponses();
    await waitOutStrays();
    expect(t.callsTo(dest.url)).toHaveLength(2);
    expect(t.callsTo(other.url)).toHaveLength(1);
  });

  it("is recorded in the delivery log as attempt 1 of a delivery of its own, newest first", async () => {
    const dest = await createDestination(t.api);
    const eventId = await deliveredEvent(dest);
    const [original] = (await listAttempts(t.api, dest.id)).data;
    await resend(dest.id, eventId);
    await expectAttemptRows(dest.id, 2);

    const { data } = await listAttempts(t.api, dest.id, `?event=${eventId}`);
    expect(data).toEqual([
      expect.objectContaining({ event: eventId, attempt: 1, outcome: "succeeded" }),
      original,
    ]);
    expect((data[0]?.id ?? "") > (original?.id ?? "")).toBe(true);
  });

  it("a resend the receiver fails is retried as attempt 2 of its own delivery", async () => {
    const retries = holdRetries();
    const dest = await createDestination(t.api);
    const eventId = await deliveredEvent(dest);
    t.respond = () => new Response("boom", { status: 500 });
    await resend(dest.id, eventId);
    await vi.waitFor(() => expect(retries).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(retries).toEqual([
      {
        body: { event_id: eventId, destination_id: dest.id, attempt: 2, shard: "DB" },
        delaySeconds: retryDelayAfter(env, 1),
      },
    ]);
    expect((await listAttempts(t.api, dest.id)).data.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, "failed"],
      [1, "succeeded"],
    ]);
  });

  it("an event of a type the destination does not receive is 400 parameter_invalid on event", async () => {
    const dest = await createDestination(t.api, { enabled_events: ["customer.updated"] });
    const eventId = await insertEvent(t.account.id, { type: "customer.created" });
    const res = await t.api.post(resendPath(dest.id), { event: eventId });
    expectError(res, 400, "parameter_invalid", "event");
    expect(res.body.error.message).toContain("customer.created");
  });

  it("a ping goes again to the destination it pinged, and to no other", async () => {
    const dest = await createDestination(t.api);
    const everything = await createDestination(t.api, { enabled_events: ["*"] });
    const pinged = await t.api.post(`/v1/event-destinations/${dest.id}/ping`);
    expectStatus(pinged, 200);
    const pingId = (pinged.body as unknown as Event).id;
    await resend(dest.id, pingId);
    await expectCallsTo(t.calls, dest.url, 2);
    expectError(
      await t.api.post(resendPath(everything.id), { event: pingId }),
      400,
      "parameter_invalid",
      "event",
    );
    await waitOutStrays();
    expect(t.callsTo(everything.url)).toEqual([]);
    expect(t.callsTo(dest.url)).toHaveLength(2);
  });

  it("an unknown event, or another account's, is 400 parameter_invalid on event, as any unknown id in a body", async () => {
    const dest = await createDestination(t.api);
    const stranger = await createAccount();
    const theirs = await insertEvent(stranger.id);
    for (const eventId of [theirs, "evt_00000000000000000000000000", "nope"]) {
      const res = await t.api.post(resendPath(dest.id), { event: eventId });
      expectError(res, 400, "parameter_invalid", "event");
      expect(res.body.error.message).toContain(eventId);
    }
  });

  it("a test key cannot resend a live event, nor a live key a test event: 400 on event", async () => {
    const testDest = await createDestination(t.account.testKey);
    const liveDest = await createDestination(t.account.liveKey);
    const liveEvent = await insertEvent(t.account.id, { live: true });
    const testEvent = await insertEvent(t.account.id, { live: false });
    expectError(
      await t.api.post(resendPath(testDest.id), { event: liveEvent }),
      400,
      "parameter_invalid",
      "event",
    );
    const live = client(t.account.liveKey);
    expectError(
      await live.post(resendPath(liveDest.id), { event: testEvent }),
      400,
      "parameter_invalid",
      "event",
    );
    await waitOutStrays();
    expect(t.callsTo(testDest.url)).toEqual([]);
    expect(t.callsTo(liveDest.url)).toEqual([]);
  });

  it("a disabled destination is 409 resource_conflict; enabled again, the resend goes", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    expectStatus(await t.api.post(`/v1/event-destinations/${dest.id}/disable`), 200);
    expectError(await t.api.post(resendPath(dest.id), { event: eventId }), 409, "resource_conflict");
    await waitOutStrays();
    expect(t.callsTo(dest.url)).toEqual([]);

    expectStatus(await t.api.post(`/v1/event-destinations/${dest.id}/enable`), 200);
    await resend(dest.id, eventId);
    await expectCallsTo(t.calls, dest.url, 1);
  });

  it("event is required, a string of at most 64 characters, and the only field", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    expectError(await t.api.post(resendPath(dest.id), {}), 400, "parameter_missing", "event");
    expectError(await t.api.post(resendPath(dest.id), { event: 42 }), 400, "parameter_invalid", "event");
    expectError(
      await t.api.post(resendPath(dest.id), { event: "e".repeat(65) }),
      400,
      "parameter_invalid",
      "event",
    );
    expectError(
      await t.api.post(resendPath(dest.id), { event: eventId, destination: dest.id }),
      400,
      "parameter_unknown",
      "destination",
    );
  });

  it("a resend retried with its Idempotency-Key is delivered once", async () => {
    const dest = await createDestination(t.api);
    const control = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    const headers = { "Idempotency-Key": "resend-1" };
    await resend(dest.id, eventId, { headers });
    const again = await resend(dest.id, eventId, { headers });
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");

    await resend(control.id, eventId);
    await expectCallsTo(t.calls, control.url, 1);
    await waitOutStrays();
    expect(t.callsTo(dest.url)).toHaveLength(1);
  });
});

describeAuthMatrix({
  method: "POST",
  path: (id) => resendPath(id),
  body: { event: "evt_00000000000000000000000000" },
  create: async (key) => (await createDestination(key)).id,
  read: readDestination,
});
