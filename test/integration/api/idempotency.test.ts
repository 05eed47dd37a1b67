import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Invoice } from "../../../src/invoices/schemas";
import { sha256Hex } from "../../../src/lib/crypto";
import { deleteExpiredIdempotencyKeys } from "../../../src/retention/expire";
import { client, expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { beforeBatches, countRows, failingWith } from "../../helpers/db";
import { createAccount, validCustomer } from "../../helpers/factories";
import { customerWithAddress, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

const HOUR = 60 * 60 * 1000;

const post = <P extends string>(key: string, path: P, body: unknown, idempotencyKey: string) =>
  request("POST", path, body, { key, headers: { "idempotency-key": idempotencyKey } });

const storedKeys = async (accountId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?")
    .bind(accountId)
    .first<number>("n")) ?? 0;

describe("Idempotency-Key on every POST (Stripe's semantics)", () => {
  it("a retried create replays the first response byte for byte, marked Idempotent-Replayed, and creates nothing", async () => {
    const account = await createAccount();
    const first = await post(account.testKey, "/v1/customers", validCustomer, "create-1");
    expectStatus(first, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const events = await countRows("events", account.id);
    const replay = await post(account.testKey, "/v1/customers", validCustomer, "create-1");
    expectStatus(replay, 201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await countRows("customers", account.id)).toBe(1);
    expect(await countRows("events", account.id)).toBe(events);
  });

  it("the same key with another body is 400 idempotency_key_reused and writes nothing", async () => {
    const account = await createAccount();
    expectStatus(await post(account.testKey, "/v1/customers", validCustomer, "k"), 201);
    const res = await post(account.testKey, "/v1/customers", { ...validCustomer, name: "Other" }, "k");
    expectError(res, 400, "idempotency_key_reused", "Idempotency-Key");
    expect(await countRows("customers", account.id)).toBe(1);
  });

  it("the same key on another path is 400 idempotency_key_reused", async () => {
    const account = await createAccount();
    expectStatus(await post(account.testKey, "/v1/customers", validCustomer, "k"), 201);
    const res = await post(account.testKey, "/v1/event-destinations", validCustomer, "k");
    expectError(res, 400, "idempotency_key_reused", "Idempotency-Key");
  });

  it("a request that fails validation is not stored: the key can then carry a corrected request", async () => {
    const account = await createAccount();
    const bad = await post(account.testKey, "/v1/customers", { name: "No tax id" }, "fix-me");
    expectError(bad, 400, "parameter_missing", "tax_id");
    expect(await storedKeys(account.id)).toBe(0);
    expectStatus(await post(account.testKey, "/v1/customers", validCustomer, "fix-me"), 201);
  });

  it.each([
    [
      "a Tax ID's check digit",
      "/v1/customers",
      { ...validCustomer, tax_id: { country: "ES", type: "es_nif", value: "B12345670" } },
      validCustomer,
      "tax_id.value",
    ],
    [
      "a webhook URL's host",
      "/v1/event-destinations",
      { name: "Hooks", url: "https://10.0.0.1/hooks", enabled_events: ["customer.created"] },
      { name: "Hooks", url: "https://hooks.example.com/in", enabled_events: ["customer.created"] },
      "url",
    ],
  ] as const)(
    "a request that fails validation in its handler (%s) is not stored either",
    async (_, path, bad, good, param) => {
      const account = await createAccount();
      expectError(await post(account.testKey, path, bad, "fix-me"), 400, "parameter_invalid", param);
      expect(await storedKeys(account.id)).toBe(0);
      expectStatus(await post(account.testKey, path, good, "fix-me"), 201);
    },
  );

  it("an invoice refused by its line rules (found while building it) is not stored: the corrected one issues with the key", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const line = { description: "Service", quantity: "1", unit_price: "10.00", taxes: [] };
    const bad = await post(
      account.testKey,
      "/v1/invoices",
      { type: "simplified", currency: "XYZ", lines: [line] },
      "inv",
    );
    expectError(bad, 400, "parameter_invalid", "currency");
    expect(await storedKeys(account.id)).toBe(0);
    const good = await post(
      account.testKey,
      "/v1/invoices",
      { type: "simplified", currency: "EUR", lines: [line] },
      "inv",
    );
    expectStatus(good, 201);
  });

  it("a body nested past 64 levels is 400 json_invalid with a key too (never a 500), and stores nothing", async () => {
    const account = await createAccount();
    const deep = `{"name":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const res = await request("POST", "/v1/customers", undefined, {
      key: account.testKey,
      rawBody: deep,
      headers: { "content-type": "application/json", "idempotency-key": "deep" },
    });
    expectError(res, 400, "json_invalid");
    expect(await storedKeys(account.id)).toBe(0);
    // 64 levels are still JSON the API reads (and refuses by its schema, as any wrong type).
    const nested = `{"name":${"[".repeat(63)}${"]".repeat(63)}}`;
    const ok = await request("POST", "/v1/customers", undefined, {
      key: account.testKey,
      rawBody: nested,
      headers: { "content-type": "application/json", "idempotency-key": "nested" },
    });
    expectError(ok, 400, "parameter_invalid", "name");
  });

  it("a 4xx from a business rule is stored and replayed", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    await setProfile(api);
    const customer = (await api.post("/v1/customers", validCustomer)).body;
    const body = { customer: customer.id, lines: [ivaLine()] };
    const first = await post(account.testKey, "/v1/invoices", body, "no-address");
    expectError(first, 400, "customer_address_required", "customer");
    // The address is added, but the key replays the decision already taken.
    await api.patch(`/v1/customers/${customer.id}`, {
      address: { line_1: "Calle 1", city: "Madrid", postal_code: "28001", country: "ES" },
    });
    const replay = await post(account.testKey, "/v1/invoices", body, "no-address");
    expect(replay.status).toBe(400);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a replayed issuance consumes no number and records no event", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    await setProfile(api);
    const customer = await customerWithAddress(api);
    const body = { customer: customer.id, lines: [ivaLine()] };
    const first = await post(account.testKey, "/v1/invoices", body, "inv-1");
    const events = await countRows("events", account.id);
    const replay = await post(account.testKey, "/v1/invoices", body, "inv-1");
    expect((replay.body as Invoice).number).toBe("INV-0001");
    expect(replay.text).toBe(first.text);
    expect(await countRows("events", account.id)).toBe(events);
    expect((await issue(api, body)).number).toBe("INV-0002");
  });

  it("a request whose write committed but whose response was not stored never runs again: no second invoice, no second debit", async () => {
    const clock = useClock(Date.now());
    const account = await createAccount();
    const api = client(account.testKey);
    await setProfile(api);
    const customer = await customerWithAddress(api);
    const body = { customer: customer.id, lines: [ivaLine()] };
    // The response cannot be stored (as when the isolate dies, or D1 fails, right after the write).
    const first = await failingWith(
      "BEFORE UPDATE OF response_body ON idempotency_keys WHEN NEW.response_body IS NOT NULL",
      () => post(account.testKey, "/v1/invoices", body, "lost"),
    );
    expectError(first, 500, "api_error");
    expect(await countRows("invoices", account.id)).toBe(1);
    const debits = await countRows("balance_transactions", account.id);
    // Long past the 60 s after which a request that never wrote frees its key.
    clock.advance(10 * 60 * 1000);
    const retry = await post(account.testKey, "/v1/invoices", body, "lost");
    expectError(retry, 409, "idempotency_key_in_use");
    expect(retry.body.error.message).toContain("will not run again");
    expect(await countRows("invoices", account.id)).toBe(1);
    expect(await countRows("balance_transactions", account.id)).toBe(debits);
  });

  it("a 5xx is not stored: the same key then carries the retry, which runs", async () => {
    const account = await createAccount();
    // D1 failing the write: the request is a 500 and nothing was written.
    const first = await failingWith("BEFORE INSERT ON customers", () =>
      post(account.testKey, "/v1/customers", validCustomer, "after-500"),
    );
    expectError(first, 500, "api_error");
    expect(await storedKeys(account.id)).toBe(0);
    const retry = await post(account.testKey, "/v1/customers", validCustomer, "after-500");
    expectStatus(retry, 201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await countRows("customers", account.id)).toBe(1);
  });

  it("a first request that died before writing frees its key after 60 s: the retry runs", async () => {
    const clock = useClock(Date.now());
    const account = await createAccount();
    // What a request leaves when its isolate dies before its write: the claim alone.
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (account_id, live, key, request_hash, created_at, expires_at) VALUES (?, 0, 'died', ?, ?, ?)",
    )
      .bind(
        account.id,
        await sha256Hex(`POST /v1/customers\n${JSON.stringify(validCustomer)}`),
        new Date(clock.now()).toISOString(),
        new Date(clock.now() + 24 * HOUR).toISOString(),
      )
      .run();
    expectError(
      await post(account.testKey, "/v1/customers", validCustomer, "died"),
      409,
      "idempotency_key_in_use",
    );
    clock.advance(61_000);
    expectStatus(await post(account.testKey, "/v1/customers", validCustomer, "died"), 201);
    expect(await countRows("customers", account.id)).toBe(1);
  });

  it("a slow first request whose key was taken over after 60 s writes nothing: 409, and the key stays its successor's", async () => {
    const account = await createAccount();
    const successor = "2000-01-01T00:00:00.000Z";
    // The takeover, exactly: another request claims the key right before this one's write batch.
    beforeBatches(async (sql) => {
      if (!/insert into "customers"/i.test(sql)) return;
      await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE account_id = ? AND key = 'slow'")
        .bind(successor, account.id)
        .run();
    });
    const res = await post(account.testKey, "/v1/customers", validCustomer, "slow");
    vi.restoreAllMocks();
    expectError(res, 409, "idempotency_key_in_use");
    expect(await countRows("customers", account.id)).toBe(0);
    const row = await env.DB.prepare(
      "SELECT created_at, response_status FROM idempotency_keys WHERE account_id = ? AND key = 'slow'",
    )
      .bind(account.id)
      .first();
    expect(row).toEqual({ created_at: successor, response_status: null });
  });

  it("concurrent requests with one key run once: the others are 409 idempotency_key_in_use or the replay", async () => {
    const account = await createAccount();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(account.testKey, "/v1/customers", validCustomer, "race")),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, "idempotency_key_in_use");
    const created = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(created.size).toBe(1);
    expect(await countRows("customers", account.id)).toBe(1);
  });

  it("keys are per account and environment: the same key on the live key is a new request", async () => {
    const account = await createAccount();
    const other = await createAccount();
    const test = await post(account.testKey, "/v1/customers", validCustomer, "shared");
    const live = await post(account.liveKey, "/v1/customers", validCustomer, "shared");
    const stranger = await post(other.testKey, "/v1/customers", validCustomer, "shared");
    for (const r of [test, live, stranger]) expectStatus(r, 201);
    expect(new Set([test.body.id, live.body.id, stranger.body.id]).size).toBe(3);
    expect(live.headers.get("idempotent-replayed")).toBeNull();
  });

  it.each([
    ["an empty key", ""],
    ["a key of 256 characters", "k".repeat(256)],
    ["a key with a non-ASCII character", "clé"],
  ])("%s is 400 parameter_invalid with param Idempotency-Key", async (_, value) => {
    const account = await createAccount();
    const res = await post(account.testKey, "/v1/customers", validCustomer, value);
    expectError(res, 400, "parameter_invalid", "Idempotency-Key");
    expect(await countRows("customers", account.id)).toBe(0);
  });

  it("stored keys expire after 24 hours: replayed just before, the cron deletes them after and the key is free again", async () => {
    const account = await createAccount();
    const clock = useClock(Date.now());
    const first = await post(account.testKey, "/v1/customers", validCustomer, "old");
    expectStatus(first, 201);
    expect(await storedKeys(account.id)).toBe(1);
    // One minute before the 24 hours are up, the stored response still answers.
    clock.advance(24 * HOUR - 60_000);
    const replay = await post(account.testKey, "/v1/customers", validCustomer, "old");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(await deleteExpiredIdempotencyKeys(env)).toBe(0);
    expect(await countRows("customers", account.id)).toBe(1);
    clock.advance(HOUR + 60_000);
    // Expired but not yet swept: a new request with the key runs afresh.
    const again = await post(account.testKey, "/v1/customers", { ...validCustomer, name: "New" }, "old");
    expectStatus(again, 201);
    expect(again.body.name).toBe("New");
    clock.advance(25 * HOUR);
    expect(await deleteExpiredIdempotencyKeys(env)).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(account.id)).toBe(0);
  });
});
