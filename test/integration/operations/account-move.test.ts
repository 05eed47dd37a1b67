/**
 * Moving an account from one shard to another (docs/scaling.md, `npm run account:move`): the
 * steps of scripts/account-move/move.ts run here on the suite's two local shards and its
 * directory, with the API checked before and after.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  accountTables,
  countRows,
  inFlight,
  moveAccount,
  type Sql,
  shardOf,
} from "../../../scripts/account-move/move";
import { client, expectStatus } from "../../helpers/api";
import { topUp } from "../../helpers/balance";
import { useClock } from "../../helpers/clock";
import { eventsTaken } from "../../helpers/db";
import { createAccount, createCustomer, createDestination } from "../../helpers/factories";
import { getInvoice, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { runPdfGeneration } from "../../helpers/pdf";
import { runSubmissions } from "../../helpers/verifactu";
import { captureChecks, playChecks } from "../../helpers/verifications";
import { captureFetch, runQueue } from "../../helpers/webhooks";

const sql: Sql = async (database, statement) =>
  (await (env as unknown as Record<string, D1Database>)[database]!.prepare(statement).all()).results;

afterEach(() => {
  vi.restoreAllMocks();
});

const idsOf = (body: unknown) => (body as { data: { id: string }[] }).data.map((o) => o.id);

describe("moving an account between shards", () => {
  it("every table that holds an account's rows is moved", async () => {
    // D1 refuses pragma functions: a table's account_id column is read from its CREATE statement.
    const tables = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all<{
      name: string;
      sql: string;
    }>();
    const holding = tables.results.filter((t) => /[`"\s(]account_id[`"\s]/.test(t.sql)).map((t) => t.name);
    const moved = new Set(accountTables("acct_x").map((t) => t.table));
    // Not an account's data: fiscal_moves is the move's own escape from the immutability
    // triggers, written per shard; the directory's tables belong to the DIRECTORY database (here
    // the same as DB), which the move switches rather than copies.
    const notData = new Set(["fiscal_moves", "directory_accounts", "api_keys"]);
    const unmoved = holding.filter((name) => !moved.has(name) && !notData.has(name));
    expect(unmoved).toEqual([]);
  });

  it("after pause, drain, copy and switch, the account reads and writes the same on its new shard, and the old one keeps only its ledger", async () => {
    const clock = useClock(Date.now());
    captureFetch(() => new Response("ok"));
    const checks = captureChecks();
    const neighbour = await createAccount({ shard: "DB" });
    const neighbourCustomer = await createCustomer(client(neighbour.testKey));
    const account = await createAccount({ shard: "DB" });
    const api = client(account.testKey);
    await topUp(account.id, false, 1_000, "Credit");
    await setProfile(api);
    await createDestination(api);
    await createCustomer(api, { name: "Ferretería Norte SL" });
    await createCustomer(api, { name: "Panadería Sur SA" });
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/payments`, { amount: "1.00" }), 201);
    await eventsTaken(account.id);

    // The Tax ID checks (the issuer's, two customers'), the record and the PDF are still to run.
    expect(await inFlight(sql, "DB", account.id)).toEqual([
      "3 Tax ID checks pending",
      "1 VERI*FACTU records pending",
      "1 PDFs not generated",
    ]);
    await playChecks(checks);
    await runSubmissions({ accountId: account.id, live: false });
    await runPdfGeneration(invoice.id);
    await eventsTaken(account.id);

    const before = {
      customers: idsOf((await api.get("/v1/customers")).body),
      events: idsOf((await api.get("/v1/events?limit=100")).body),
      invoice: await getInvoice(api, invoice.id),
      payments: idsOf((await api.get("/v1/payments")).body),
      balance: (await api.get("/v1/balance")).body,
    };

    let source: Record<string, number> = {};
    const result = await moveAccount(sql, account.id, "DB_2", async () => {
      clock.advance(30_001);
      expectStatus(await api.post("/v1/customers", { name: "Too soon" }), 503);
      expect(await inFlight(sql, "DB", account.id)).toEqual([]);
      source = await countRows(sql, "DB", account.id);
    });
    if (!result.moved) throw new Error(result.reason);
    const { copied } = result;
    expect(result.from).toBe("DB");
    expect(await countRows(sql, "DB_2", account.id)).toEqual(copied);
    expect(source).toEqual(copied);
    expect(copied).toMatchObject({
      customers: 2,
      invoices: 1,
      payments: 1,
      verifactu_records: 1,
      event_destinations: 1,
    });
    expect(await shardOf(sql, account.id)).toBe("DB_2");
    const left = await countRows(sql, "DB", account.id);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([
      ["accounts", 1],
      ["balance_transactions", copied.balance_transactions],
    ]);

    clock.advance(30_001);
    expect(idsOf((await api.get("/v1/customers")).body)).toEqual(before.customers);
    expect(idsOf((await api.get("/v1/customers?q=Ferreter")).body)).toHaveLength(1);
    expect(idsOf((await api.get("/v1/events?limit=100")).body)).toEqual(before.events);
    expect(await getInvoice(api, invoice.id)).toEqual(before.invoice);
    expect(idsOf((await api.get("/v1/payments")).body)).toEqual(before.payments);
    expect((await api.get("/v1/balance")).body).toEqual(before.balance);
    const next = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(Number(next.number?.match(/\d+$/)?.[0])).toBe(Number(invoice.number?.match(/\d+$/)?.[0]) + 1);
    // Its record chains onto the moved one's, sealed on the new shard.
    await runSubmissions({ accountId: account.id, live: false, shard: "DB_2" });
    expect((await getInvoice(api, next.id)).verifactu?.previous_hash).toBe(before.invoice.verifactu?.hash);
    // The neighbour never moved.
    expectStatus(await client(neighbour.testKey).get(`/v1/customers/${neighbourCustomer.id}`), 200);
  });

  it("a move refused for background work in flight leaves the account on its shard with its writes resumed; an unknown account or the same shard is refused before any pause", async () => {
    const clock = useClock(Date.now());
    captureChecks();
    const account = await createAccount({ shard: "DB" });
    const api = client(account.testKey);
    await createCustomer(api, { tax_id: { country: "ES", type: "eu_vat", value: "ESB12345674" } });

    const refused = await moveAccount(sql, account.id, "DB_2", async () => {
      clock.advance(30_001);
    });
    expect(refused).toEqual({ moved: false, reason: expect.stringContaining("1 Tax ID checks pending") });
    expect(await shardOf(sql, account.id)).toBe("DB");
    clock.advance(30_001);
    expectStatus(
      await api.post("/v1/customers", {
        name: "After the refusal",
        tax_id: { country: "GB", type: "local", value: "GB1" },
      }),
      201,
    );
    expect((await countRows(sql, "DB_2", account.id)).customers).toBe(0);

    const paused = vi.fn(async () => {});
    expect(await moveAccount(sql, account.id, "DB", paused)).toMatchObject({ moved: false });
    expect(await moveAccount(sql, "acct_00000000000000000000000000", "DB_2", paused)).toMatchObject({
      moved: false,
    });
    expect(paused).not.toHaveBeenCalled();
  });

  it("a move cut short after copying some tables, run again after the source changed, leaves the target equal to the source's latest rows", async () => {
    const clock = useClock(Date.now());
    captureFetch(() => new Response("ok"));
    const checks = captureChecks();
    const account = await createAccount({ shard: "DB" });
    const api = client(account.testKey);
    await topUp(account.id, false, 1_000, "Credit");
    const kept = await createCustomer(api, { name: "Ferretería Norte SL" });
    const removed = await createCustomer(api, { name: "Panadería Sur SA" });
    await playChecks(checks);
    await eventsTaken(account.id);

    // The account's rows on a shard, table by table in rowid order, without what the target
    // gives anew (the account's search_key, a customer's seq).
    const rowsOn = async (shard: string) => {
      const all: Record<string, unknown[]> = {};
      for (const { table, where, omit = [] } of accountTables(account.id)) {
        const rows = await sql(shard, `SELECT * FROM ${table} WHERE ${where} ORDER BY rowid`);
        all[table] = rows.map((row) =>
          Object.fromEntries(Object.entries(row).filter(([c]) => !omit.includes(c))),
        );
      }
      return all;
    };

    // First run: fails once the customers are copied, as a lost connection would.
    const failing: Sql = async (database, statement) => {
      if (database === "DB_2" && /^INSERT INTO events /.test(statement)) throw new Error("connection lost");
      return sql(database, statement);
    };
    await expect(moveAccount(failing, account.id, "DB_2", async () => clock.advance(30_001))).rejects.toThrow(
      "connection lost",
    );
    expect(await shardOf(sql, account.id)).toBe("DB");
    expect((await countRows(sql, "DB_2", account.id)).customers).toBe(2);

    // The pause was lifted: the source changes after the copy was cut short.
    clock.advance(30_001);
    expectStatus(await api.patch(`/v1/customers/${kept.id}`, { name: "Ferretería Norte y Sur SL" }), 200);
    expectStatus(await api.del(`/v1/customers/${removed.id}`), 204);
    await topUp(account.id, false, 500, "Second credit");
    await eventsTaken(account.id);

    let latest: Record<string, unknown[]> = {};
    const result = await moveAccount(sql, account.id, "DB_2", async () => {
      clock.advance(30_001);
      latest = await rowsOn("DB");
    });
    if (!result.moved) throw new Error(result.reason);
    expect(await rowsOn("DB_2")).toEqual(latest);
    expect(latest.customers).toHaveLength(1);

    clock.advance(30_001);
    expect((await api.get(`/v1/customers/${kept.id}`)).body).toMatchObject({
      name: "Ferretería Norte y Sur SL",
    });
    expectStatus(await api.get(`/v1/customers/${removed.id}`), 404);
    expect((await api.get("/v1/balance")).body).toMatchObject({ available: "15.00" });
  });

  it("messages queued for the old shard before the move and run after it are run on the new shard, none lost", async () => {
    const clock = useClock(Date.now());
    const { calls } = captureFetch(() => new Response("ok"));
    const checks = captureChecks();
    const account = await createAccount({ shard: "DB" });
    const api = client(account.testKey);
    const destination = await createDestination(api);
    const customer = await createCustomer(api, { name: "Ferretería Norte SL" });
    await playChecks(checks);
    await eventsTaken(account.id);
    const [event] = await sql("DB", `SELECT id FROM events WHERE related_object_id = '${customer.id}'`);
    // A resend queued before the move, not attempted yet: nothing on the shard says it waits,
    // so the drain cannot see it. The queue stamped it with the shard it was sent from.
    const queued = { event_id: String(event?.id), destination_id: destination.id, attempt: 1, shard: "DB" };

    const result = await moveAccount(sql, account.id, "DB_2", async () => clock.advance(30_001));
    if (!result.moved) throw new Error(result.reason);
    const before = calls.length;

    const { result: run } = await runQueue([{ body: queued }]);
    expect(run.explicitAcks).toEqual(["m1"]);
    expect(calls.slice(before).map((call) => call.url)).toEqual([destination.url]);
    // Recorded where the account lives now; nothing written on the shard it left.
    const recorded = (shard: string) =>
      sql(
        shard,
        `SELECT event_id, outcome FROM delivery_attempts WHERE destination_id = '${destination.id}'`,
      );
    expect(await recorded("DB_2")).toEqual(
      expect.arrayContaining([{ event_id: event?.id, outcome: "succeeded" }]),
    );
    expect(await recorded("DB")).toEqual([]);
  });
});
