/**
 * GET /v1/event-destinations/{id}/attempts: the delivery log of one destination, as the
 * `webhook-deliveries` consumer records it, through the shared pagination.
 */
import { describe, expect, it } from "vitest";
import { CIRCUIT_MAX_MS } from "../../../src/webhooks/circuit";
import { type ApiResponse, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createCustomer, createDestination, insertEvent } from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
import { describeAuthMatrix, expectError } from "../../helpers/security";
import {
  deliveryAttempts,
  expectAttemptRows,
  expectCallsTo,
  insertAttempts,
  listAttempts,
  receiverPerTest,
  runQueue,
} from "../../helpers/webhooks";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const rowsRead = (res: ApiResponse) => Number(res.headers.get("D1-Rows-Read"));

const t = receiverPerTest();

/** Runs the consumer on attempt `attempt` of `eventId` to the destination. */
const deliver = (eventId: string, destinationId: string, attempt = 1) =>
  runQueue([{ body: { event_id: eventId, destination_id: destinationId, attempt } }]);

describe("the delivery log", () => {
  it("lists every attempt sent to the destination, newest first, as delivery_attempt objects", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    t.respond = () => new Response("boom", { status: 500 });
    const clock = useClock(Date.now());
    await deliver(eventId, dest.id, 1);
    // The next attempt comes after its delay, by when the failure's circuit has closed.
    clock.advance(CIRCUIT_MAX_MS);
    t.respond = () => new Response("ok", { status: 202 });
    await deliver(eventId, dest.id, 2);

    const log = await listAttempts(t.api, dest.id);
    expect(log).toEqual({
      object: "list",
      url: `/v1/event-destinations/${dest.id}/attempts`,
      has_more: false,
      data: [
        {
          id: expect.stringMatching(/^dla_[0-9A-Z]{26}$/),
          object: "delivery_attempt",
          live: false,
          event: eventId,
          attempt: 2,
          status_code: 202,
          duration_ms: expect.any(Number),
          outcome: "succeeded",
          error: null,
          created_at: expect.stringMatching(ISO),
        },
        expect.objectContaining({ attempt: 1, status_code: 500, outcome: "failed", error: "HTTP 500" }),
      ],
    });
  });

  it("a delivery through the real queue appears in its destination's log, end to end", async () => {
    const dest = await createDestination(t.api, { enabled_events: ["customer.created"] });
    await createCustomer(t.api);
    const [call] = await expectCallsTo(t.calls, dest.url, 1);
    await expectAttemptRows(dest.id, 1);
    const { data } = await listAttempts(t.api, dest.id);
    expect(data).toEqual([
      expect.objectContaining({ event: JSON.parse(call?.body ?? "{}").id, attempt: 1, outcome: "succeeded" }),
    ]);
  });

  it("a stopped delivery lists its last attempt, not the exhausted line the dead letter adds", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    t.respond = () => new Response("boom", { status: 503 });
    await deliver(eventId, dest.id, 5);
    expect((await deliveryAttempts(dest.id)).map((r) => r.outcome)).toEqual(["failed", "exhausted"]);

    const { data } = await listAttempts(t.api, dest.id);
    expect(data).toEqual([expect.objectContaining({ attempt: 5, outcome: "failed", status_code: 503 })]);
  });

  it("an attempt without an answer has status_code null and says why in error", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    t.respond = () => {
      throw new TypeError("Network connection lost.");
    };
    await deliver(eventId, dest.id);
    const { data } = await listAttempts(t.api, dest.id);
    expect(data).toEqual([
      expect.objectContaining({
        status_code: null,
        outcome: "failed",
        error: expect.stringMatching(/^network error: /),
      }),
    ]);
  });

  it("?event= lists the attempts of that event only; an event without attempts lists none", async () => {
    const dest = await createDestination(t.api);
    const [first, second] = [await insertEvent(t.account.id), await insertEvent(t.account.id)];
    await deliver(first as string, dest.id);
    await deliver(second as string, dest.id);

    const { data } = await listAttempts(t.api, dest.id, `?event=${first}`);
    expect(data.map((a) => a.event)).toEqual([first]);
    expect((await listAttempts(t.api, dest.id, `?event=${await insertEvent(t.account.id)}`)).data).toEqual(
      [],
    );
  });

  it("a destination lists only its own attempts; one without any has an empty log", async () => {
    const dest = await createDestination(t.api);
    const other = await createDestination(t.api);
    await deliver(await insertEvent(t.account.id), other.id);
    expect(await listAttempts(t.api, dest.id)).toMatchObject({ data: [], has_more: false });
    expect((await listAttempts(t.api, other.id)).data).toHaveLength(1);
  });
});

describe("the delivery log's pagination", () => {
  it("pages newest first with limit, starting_after and ending_before", async () => {
    const dest = await createDestination(t.api);
    const ids = await insertAttempts(dest.id, 5);
    const newestFirst = [...ids].reverse();

    const first = await listAttempts(t.api, dest.id, "?limit=2");
    expect(first.data.map((a) => a.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const next = await listAttempts(t.api, dest.id, `?limit=2&starting_after=${first.data[1]?.id}`);
    expect(next.data.map((a) => a.id)).toEqual(newestFirst.slice(2, 4));
    const back = await listAttempts(t.api, dest.id, `?limit=2&ending_before=${next.data[0]?.id}`);
    expect(back.data.map((a) => a.id)).toEqual(newestFirst.slice(0, 2));
    expect(back.has_more).toBe(false);
  });

  it("a cursor from another destination's log, or an exhausted line, is 400 with its param", async () => {
    const dest = await createDestination(t.api);
    const other = await createDestination(t.api);
    const [foreign] = await insertAttempts(other.id, 1);
    const [exhausted] = await insertAttempts(dest.id, 1, () => ({ outcome: "exhausted" }));
    expectError(
      await t.api.get(`/v1/event-destinations/${dest.id}/attempts?starting_after=${foreign}`),
      400,
      "parameter_invalid",
      "starting_after",
    );
    expectError(
      await t.api.get(`/v1/event-destinations/${dest.id}/attempts?ending_before=${exhausted}`),
      400,
      "parameter_invalid",
      "ending_before",
    );
  });

  it("an unknown query parameter, a bad limit or an over-long event are 400", async () => {
    const dest = await createDestination(t.api);
    const path = `/v1/event-destinations/${dest.id}/attempts`;
    expectError(await t.api.get(`${path}?destination=${dest.id}`), 400, "parameter_unknown", "destination");
    expectError(await t.api.get(`${path}?limit=101`), 400, "parameter_invalid", "limit");
    expectError(await t.api.get(`${path}?event=evt_${"0".repeat(80)}`), 400, "parameter_invalid", "event");
  });

  it("a page reads at most limit + 2 D1 rows, whatever the table and the log's other lines hold", async () => {
    const dest = await createDestination(t.api);
    const busy = await createDestination(t.api);
    const [target] = await insertAttempts(dest.id, 30);
    // Newer than the page: other destinations' attempts and this one's exhausted lines, which
    // the log leaves out; an index over every line would read through them.
    await insertAttempts(busy.id, 1_500);
    await insertAttempts(dest.id, 1_500, () => ({ outcome: "exhausted" }));
    expectStatus(await t.api.get(`/v1/event-destinations/${dest.id}/attempts?limit=1`), 200); // warm the key cache

    const page = await t.api.get(`/v1/event-destinations/${dest.id}/attempts?limit=10`);
    expectStatus(page, 200);
    // The destination's own row, then limit + 1 log rows.
    expect(rowsRead(page)).toBeLessThanOrEqual(10 + 2);
    const after = await t.api.get(
      `/v1/event-destinations/${dest.id}/attempts?limit=10&starting_after=${target}`,
    );
    expectStatus(after, 200);
    expect(rowsRead(after)).toBeLessThanOrEqual(10 + 3);
  }, 60_000);

  it("a page of one event's attempts reads at most limit + 2 D1 rows, whatever the other events hold", async () => {
    const dest = await createDestination(t.api);
    const eventId = await insertEvent(t.account.id);
    await insertAttempts(dest.id, 20, () => ({ eventId }));
    await insertAttempts(dest.id, 1_500, (i) => (i % 2 ? {} : { eventId, outcome: "exhausted" }));
    expectStatus(await t.api.get(`/v1/event-destinations/${dest.id}/attempts?limit=1`), 200);

    const page = await t.api.get(`/v1/event-destinations/${dest.id}/attempts?limit=10&event=${eventId}`);
    expectStatus(page, 200);
    expect((page.body as unknown as { data: unknown[] }).data).toHaveLength(10);
    expect(rowsRead(page)).toBeLessThanOrEqual(10 + 2);
  }, 60_000);
});

describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/event-destinations/${id}/attempts`,
  create: async (key) => (await createDestination(key)).id,
  read: readDestination,
});
