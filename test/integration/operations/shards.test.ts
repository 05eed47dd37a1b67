/**
 * Accounts on two shards (issue 15, item 6): the suite runs with SHARDS = "DB,DB_2" and a
 * directory database of its own (vitest.config.ts). Two accounts on different shards: each
 * one's writes land on its shard only, neither reaches the other's objects, and the queue
 * consumers and cron sweeps work on both, each on the shard its message or run names.
 */

import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../../src/contracts/delivery-message";
import { shardEnv, shardNames } from "../../../src/db/shards";
import jobs from "../../../src/jobs";
import { nowMs } from "../../../src/lib/clock";
import { afterResponses } from "../../helpers/after-response";
import { client, expectStatus, request } from "../../helpers/api";
import { topUp } from "../../helpers/balance";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createCustomer,
  createDestination,
  insertEvent,
  validCustomer,
} from "../../helpers/factories";
import { getInvoice, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { runPdfGeneration } from "../../helpers/pdf";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { runSubmissions } from "../../helpers/verifactu";
import { captureChecks, runChecks } from "../../helpers/verifications";
import { captureFetch, expectCallsTo, runQueue } from "../../helpers/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two accounts, one on each shard, each with a test-mode client. */
async function twoShards() {
  const first = await createAccount({ shard: "DB" });
  const second = await createAccount({ shard: "DB_2" });
  return { first, second, api1: client(first.testKey), api2: client(second.testKey) };
}

async function rowsOf(db: D1Database, table: string, accountId: string): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT id FROM ${table} WHERE account_id = ? ORDER BY id`)
    .bind(accountId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

describe("accounts on two shards: requests", () => {
  it("each account's writes land on its own shard and nowhere else", async () => {
    const { first, second, api1, api2 } = await twoShards();
    const c1 = await createCustomer(api1);
    const c2 = await createCustomer(api2);
    expect(await rowsOf(env.DB, "customers", first.id)).toEqual([c1.id]);
    expect(await rowsOf(env.DB_2, "customers", second.id)).toEqual([c2.id]);
    expect(await rowsOf(env.DB, "customers", second.id)).toEqual([]);
    expect(await rowsOf(env.DB_2, "customers", first.id)).toEqual([]);
    // The account rows too: the directory alone knows both.
    expect(await rowsOf(env.DB_2, "events", first.id)).toEqual([]);
    expect((await rowsOf(env.DB_2, "events", second.id)).length).toBeGreaterThan(0);
  });

  it("no cross-shard leak: another shard's object is a 404 to retrieve, update or delete, and absent from lists and search", async () => {
    const { api1, api2 } = await twoShards();
    const c1 = await createCustomer(api1, { name: "Shared Name SL" });
    const c2 = await createCustomer(api2, { name: "Shared Name SL" });
    for (const [api, other] of [
      [api1, c2],
      [api2, c1],
    ] as const) {
      expectStatus(await api.get(`/v1/customers/${other.id}`), 404);
      expectStatus(await api.patch(`/v1/customers/${other.id}`, { name: "Taken" }), 404);
      expectStatus(await api.del(`/v1/customers/${other.id}`), 404);
    }
    const list1 = await api1.get("/v1/customers");
    expect(list1.body.data.map((c: { id: string }) => c.id)).toEqual([c1.id]);
    const search2 = await api2.get("/v1/customers?q=Shared");
    expect(search2.body.data.map((c: { id: string }) => c.id)).toEqual([c2.id]);
    const events2 = await api2.get("/v1/events");
    const related = events2.body.data.map((e: { related_object: { id: string } }) => e.related_object.id);
    expect(related).toContain(c2.id);
    expect(related).not.toContain(c1.id);
    // Renamed by nobody: the 404s above wrote nothing on either shard.
    expect((await api1.get(`/v1/customers/${c1.id}`)).body.name).toBe("Shared Name SL");
    expect((await api2.get(`/v1/customers/${c2.id}`)).body.name).toBe("Shared Name SL");
    // The same update on the customer's own shard works: the 404s were the shard's answer.
    expectStatus(await api2.patch(`/v1/customers/${c2.id}`, { name: "Taken" }), 200);
  });

  it("a key whose account the directory places on a shard this Worker lacks is a 500, never another shard's data", async () => {
    const account = await createAccount({ shard: "DB_2" });
    await env.DIRECTORY.prepare("UPDATE directory_accounts SET shard = 'DB_9' WHERE account_id = ?")
      .bind(account.id)
      .run();
    vi.spyOn(console, "error").mockImplementation(() => {});
    expectStatus(await client(account.testKey).get("/v1/customers"), 500);
  });
});

describe("an account moving between shards", () => {
  it("a moving account's writes get 503 account_moving with Retry-After and write nothing; its reads keep working; writes resume once the move is done", async () => {
    const clock = useClock(Date.now());
    const account = await createAccount({ shard: "DB_2" });
    const setMoving = (since: string | null) =>
      env.DIRECTORY.prepare("UPDATE directory_accounts SET moving_since = ? WHERE account_id = ?")
        .bind(since, account.id)
        .run();
    await setMoving(new Date(clock.now()).toISOString());
    const api = client(account.testKey);
    const refused = await api.post("/v1/customers", validCustomer);
    expectStatus(refused, 503);
    expect(refused.body.error).toMatchObject({ type: "api_error", code: "account_moving" });
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(await rowsOf(env.DB_2, "customers", account.id)).toEqual([]);
    expectStatus(await api.get("/v1/customers"), 200);
    expectStatus(await api.del("/v1/customers/cus_00000000000000000000000000"), 503);

    // Done: the flag cleared, every isolate sees it once its 30 s key cache expires.
    await setMoving(null);
    clock.advance(30_001);
    expectStatus(await api.post("/v1/customers", validCustomer), 201);
  });
});

describe("accounts on two shards: what stays per shard", () => {
  it("the usage balance and invoice numbers are kept on the account's shard", async () => {
    const { second, api2 } = await twoShards();
    await topUp(second.id, false, 1_000, "Credit", "DB_2");
    await setProfile(api2);
    const first = await issue(api2, { type: "simplified", lines: [ivaLine()] });
    const next = await issue(api2, { type: "simplified", lines: [ivaLine()] });
    expect(Number(next.number?.match(/\d+$/)?.[0])).toBe(Number(first.number?.match(/\d+$/)?.[0]) + 1);
    const balance = (await api2.get("/v1/balance")).body as { available: string };
    expect(balance.available).toBe("9.80");
    expect(await rowsOf(env.DB_2, "balance_transactions", second.id)).toHaveLength(3);
    expect(await rowsOf(env.DB, "balance_transactions", second.id)).toEqual([]);
    expect(await rowsOf(env.DB, "invoices", second.id)).toEqual([]);
  });

  it("an Idempotency-Key is remembered on the account's shard", async () => {
    const { second } = await twoShards();
    const send = () =>
      request("POST", "/v1/customers", validCustomer, {
        key: second.testKey,
        headers: { "Idempotency-Key": "shard-key-1" },
      });
    const a = await send();
    const b = await send();
    expectStatus(a, 201);
    expect(b.body).toEqual(a.body);
    expect(await rowsOf(env.DB_2, "customers", second.id)).toHaveLength(1);
    const stored = (db: D1Database) =>
      db
        .prepare("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?")
        .bind(second.id)
        .first("n");
    expect(await stored(env.DB_2)).toBe(1);
    expect(await stored(env.DB)).toBe(0);
  });

  it("the retention cron deletes expired events on every shard", async () => {
    const { first, second } = await twoShards();
    const old = 31 * 24 * 60 * 60_000;
    const e1 = await insertEvent(first.id, { ageMs: old });
    const e2 = await insertEvent(second.id, { ageMs: old, shard: "DB_2" });
    const fresh = await insertEvent(second.id, { shard: "DB_2" });
    const ctx = createExecutionContext();
    await jobs.scheduled(createScheduledController({ scheduledTime: nowMs(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await rowsOf(env.DB, "events", first.id)).not.toContain(e1);
    const left = await rowsOf(env.DB_2, "events", second.id);
    expect(left).not.toContain(e2);
    expect(left).toContain(fresh);
  });
});

describe("accounts on two shards: queue consumers and cron sweeps", () => {
  it("webhook events of both shards are delivered through the one queue, each signed with its destination's secret", async () => {
    const { calls } = captureFetch();
    const { api1, api2 } = await twoShards();
    const d1 = await createDestination(api1);
    const d2 = await createDestination(api2);
    const c1 = await createCustomer(api1);
    const c2 = await createCustomer(api2);
    for (const [dest, customer] of [
      [d1, c1],
      [d2, c2],
    ] as const) {
      const [call] = await expectCallsTo(calls, dest.url, 1);
      if (!call) throw new Error("no delivery");
      const body = JSON.parse(call.body);
      expect(body.related_object.id).toBe(customer.id);
      const signature = parseSignature(call.headers.get("service-signature"));
      expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call.body}`));
    }
  });

  it("the cron sweep dispatches the stale events of every shard, each message stamped with its shard", async () => {
    const { first, second, api1, api2 } = await twoShards();
    const d1 = await createDestination(api1);
    const d2 = await createDestination(api2);
    await afterResponses();
    const e1 = await insertEvent(first.id, { ageMs: 5 * 60_000, dispatchedAt: null });
    const e2 = await insertEvent(second.id, { ageMs: 5 * 60_000, dispatchedAt: null, shard: "DB_2" });
    const queued: DeliveryMessage[] = [];
    vi.spyOn(env.WEBHOOKS as Queue<DeliveryMessage>, "sendBatch").mockImplementation(async (messages) => {
      queued.push(...[...messages].map((m) => m.body));
      return {} as QueueSendBatchResponse;
    });
    const ctx = createExecutionContext();
    await jobs.scheduled(createScheduledController({ scheduledTime: nowMs(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(queued).toEqual(
      expect.arrayContaining([
        { event_id: e1, destination_id: d1.id, attempt: 1, fan_out: true, shard: "DB" },
        { event_id: e2, destination_id: d2.id, attempt: 1, fan_out: true, shard: "DB_2" },
      ]),
    );
    // Stamped as swept on its own shard (the consumer, not run here, would mark it dispatched).
    const swept = await env.DB_2.prepare("SELECT swept_at FROM events WHERE id = ?").bind(e2).first();
    expect(swept?.swept_at).not.toBeNull();
  });

  it("a Tax ID verification runs on the shard its message names", async () => {
    const checks = captureChecks();
    const { api2 } = await twoShards();
    const customer = await createCustomer(api2, {
      tax_id: { country: "ES", type: "eu_vat", value: "ESB12345674" },
    });
    await vi.waitFor(() => expect(checks.sent).toHaveLength(1), { timeout: 5000, interval: 10 });
    const [check] = checks.sent;
    expect(check?.body.shard).toBe("DB_2");
    // The same message without its shard belongs to DB, which has no such Tax ID: nothing happens.
    const { result: elsewhere } = await runChecks([{ body: { ...check?.body, shard: undefined } }]);
    expect(elsewhere.retryMessages).toEqual([]);
    const pending = await api2.get(`/v1/customers/${customer.id}`);
    expect(pending.body.tax_id.verification?.status).toBe("pending");
    const { result } = await runChecks([{ body: check?.body }]);
    expect(result.retryMessages).toEqual([]);
    const done = await api2.get(`/v1/customers/${customer.id}`);
    expect(done.body.tax_id.verification).toMatchObject({ status: "completed", valid: true });
  });

  it("VERI*FACTU submission and the invoice PDF run on the shard their message names", async () => {
    const { second, api2 } = await twoShards();
    await setProfile(api2);
    const invoice = await issue(api2, {
      type: "simplified",
      lines: [ivaLine()],
    });
    await runSubmissions({ accountId: second.id, live: false });
    expect((await getInvoice(api2, invoice.id)).verifactu?.status).toBe("pending");
    await runSubmissions({ accountId: second.id, live: false, shard: "DB_2" });
    expect((await getInvoice(api2, invoice.id)).verifactu?.status).toBe("accepted");

    const pdfOf = () =>
      env.DB_2.prepare("SELECT pdf_generated_at FROM invoices WHERE id = ?").bind(invoice.id).first();
    await runPdfGeneration(invoice.id);
    expect((await pdfOf())?.pdf_generated_at).toBeNull();
    await runPdfGeneration(invoice.id, "DB_2");
    expect((await pdfOf())?.pdf_generated_at).not.toBeNull();
  });

  it("a failed delivery on DB_2 queues its next attempt for DB_2", async () => {
    captureFetch(() => new Response("down", { status: 503 }));
    const { second, api2 } = await twoShards();
    const dest = await createDestination(api2);
    const eventId = await insertEvent(second.id, { shard: "DB_2" });
    const { sent } = await runQueue([
      { body: { event_id: eventId, destination_id: dest.id, attempt: 1, shard: "DB_2" } },
    ]);
    expect(sent.map((m) => m.body)).toEqual([
      { event_id: eventId, destination_id: dest.id, attempt: 2, shard: "DB_2" },
    ]);
  });

  it("a message naming a shard this Worker lacks is retried, never handled on another shard", async () => {
    const { calls } = captureFetch();
    const { second, api2 } = await twoShards();
    const dest = await createDestination(api2);
    const eventId = await insertEvent(second.id, { shard: "DB_2" });
    const { retries } = await runQueue([
      { body: { event_id: eventId, destination_id: dest.id, attempt: 1, shard: "DB_9" } },
    ]);
    expect(retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });
    expect(calls).toEqual([]);
  });
});

describe("SHARDS configuration", () => {
  it("lists the shards, the first one the default", () => {
    expect(shardNames(env)).toEqual(["DB", "DB_2"]);
    expect(shardEnv(env, "DB_2").DB).toBe(env.DB_2);
  });

  it("a name that is not a D1 binding stops the Worker", () => {
    for (const SHARDS of ["DB,DB_9", "DB,CATALOG", "DB,db_2"]) {
      expect(() => shardNames({ ...env, SHARDS })).toThrow(/Invalid configuration: SHARDS/);
    }
  });
});
