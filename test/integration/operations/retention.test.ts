/**
 * The data-retention policy, run by the minute cron: events, delivery attempts and dead
 * letters older than 30 days and expired idempotency keys are deleted, in bounded chunks
 * that read through an index, never the whole table.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deleteExpired, deleteExpiredData } from "../../../src/retention/expire";
import { expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createDestination,
  insertEvent,
  insertEvents,
  validCustomer,
} from "../../helpers/factories";
import { runCron } from "../../helpers/verifications";
import { captureFetch, runQueue } from "../../helpers/webhooks";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Real time, so that rows made under the moved clock stay behind it. */
const NOW = Date.now();

afterEach(() => {
  vi.restoreAllMocks();
});

const exists = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<number>("n")) ?? 0;

/** An event, one delivered attempt and one exhausted delivery (a dead letter), made `ageMs` ago. */
async function deliveryHistory(accountId: string, destinationId: string, ageMs: number) {
  const clock = useClock(NOW - ageMs);
  const eventId = await insertEvent(accountId);
  captureFetch(() => new Response("ok"));
  await runQueue([{ body: { event_id: eventId, destination_id: destinationId, attempt: 1 } }]);
  const exhaustedEvent = await insertEvent(accountId);
  vi.restoreAllMocks();
  captureFetch(() => new Response("down", { status: 503 }));
  await runQueue([{ body: { event_id: exhaustedEvent, destination_id: destinationId, attempt: 5 } }]);
  vi.restoreAllMocks();
  clock.set(NOW);
  return { eventId, exhaustedEvent };
}

describe("data retention: the cron deletes what is older than 30 days", () => {
  it("events, delivery attempts and dead letters older than 30 days are deleted; those of 30 days minus a minute stay", async () => {
    const account = await createAccount();
    const dest = await createDestination(account.testKey);
    const old = await deliveryHistory(account.id, dest.id, 30 * DAY + MINUTE);
    const young = await deliveryHistory(account.id, dest.id, 30 * DAY - MINUTE);
    expect(await exists("webhook_dead_letters", "event_id", old.exhaustedEvent)).toBe(1);

    useClock(NOW);
    await runCron();
    for (const id of [old.eventId, old.exhaustedEvent]) {
      expect(await exists("events", "id", id)).toBe(0);
      expect(await exists("delivery_attempts", "event_id", id)).toBe(0);
    }
    expect(await exists("webhook_dead_letters", "event_id", old.exhaustedEvent)).toBe(0);
    for (const id of [young.eventId, young.exhaustedEvent]) {
      expect(await exists("events", "id", id)).toBe(1);
      expect(await exists("delivery_attempts", "event_id", id)).toBeGreaterThan(0);
    }
    expect(await exists("webhook_dead_letters", "event_id", young.exhaustedEvent)).toBe(1);
  });

  it("expired idempotency keys are deleted by the same cron", async () => {
    const account = await createAccount();
    const clock = useClock(NOW - 25 * 60 * MINUTE);
    const res = await request("POST", "/v1/customers", validCustomer, {
      key: account.testKey,
      headers: { "idempotency-key": "retention" },
    });
    expectStatus(res, 201);
    expect(await exists("idempotency_keys", "account_id", account.id)).toBe(1);
    clock.set(NOW);
    await runCron();
    expect(await exists("idempotency_keys", "account_id", account.id)).toBe(0);
  });
});

describe("data retention works in bounded chunks", () => {
  it("a run deletes at most maxChunks × chunk rows a table, reading about what it deletes, and the next run goes on", async () => {
    const account = await createAccount();
    const clock = useClock(NOW - 40 * DAY);
    const old = await insertEvents(account.id, 1_000);
    clock.set(NOW);
    // Younger rows in the same table: a delete that scanned the table would read them too.
    await insertEvents(account.id, 1_000);
    const remaining = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE account_id = ? AND created_at < ?")
        .bind(account.id, new Date(NOW - 30 * DAY).toISOString())
        .first<number>("n")) ?? 0;

    const run = await deleteExpiredData(env, { chunk: 100, maxChunks: 4 });
    expect(run.events.deleted).toBe(400);
    expect(run.events.chunks).toBe(4);
    // D1's own count: the index entry, the row and its index entries per row deleted (about
    // 4), never the 2,000 rows of the table a chunk.
    expect(run.events.rowsRead).toBeLessThanOrEqual(5 * 400);
    expect(await remaining()).toBe(old.length - 400);

    await deleteExpiredData(env, { chunk: 100, maxChunks: 4 });
    expect(await remaining()).toBe(old.length - 800);
    await runCron();
    expect(await remaining()).toBe(0);
    // Nothing left to delete: the minute's run costs an index probe, not a scan.
    expect((await deleteExpired(env, "events")).rowsRead).toBeLessThan(10);
  });
});
