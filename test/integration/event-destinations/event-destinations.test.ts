import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  createDestination,
  type TestAccount,
  validDestination,
} from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
import { expectError } from "../../helpers/security";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const destinationCount = (accountId: string) => countRows("event_destinations", accountId);

/** The bytes a `whsec_` secret encodes, read as hex or base64/base64url. */
function secretBytes(secret: string): number {
  const body = secret.slice("whsec_".length);
  if (/^[0-9a-f]+$/i.test(body) && body.length % 2 === 0) return body.length / 2;
  const b64 = body.replace(/-/g, "+").replace(/_/g, "/");
  return atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)).length;
}

describe("event destinations: create, retrieve, list", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  it("create returns 201 with the destination object and a whsec_ secret of at least 32 random bytes", async () => {
    const res = await api.post("/v1/event-destinations", validDestination);
    expectStatus(res, 201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ed_[0-9A-Z]{26}$/),
      object: "event_destination",
      live: false,
      name: "Billing hooks",
      url: "https://hooks.example.com/in",
      enabled_events: ["customer.created", "customer.updated"],
      status: "enabled",
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/_=-]+$/),
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
    });
    expect(secretBytes(res.body.secret)).toBeGreaterThanOrEqual(32);
  });

  it("every destination gets its own secret", async () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { id } = await createDestination(account.testKey);
      secrets.add((await readDestination(account.testKey, id)).secret);
    }
    expect(secrets.size).toBe(5);
  });

  it("retrieve returns the destination including its secret", async () => {
    const created = await api.post("/v1/event-destinations", validDestination);
    expectStatus(created, 201);
    const res = await api.get(`/v1/event-destinations/${created.body.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual(created.body);
    expect(res.body.secret).toMatch(/^whsec_/);
  });

  it("list returns destinations newest first and omits the secret", async () => {
    const own = client((await createAccount()).testKey);
    const a = await own.post("/v1/event-destinations", validDestination);
    const b = await own.post("/v1/event-destinations", { ...validDestination, name: "Second" });
    const list = await own.get("/v1/event-destinations");
    expectStatus(list, 200);
    expect(list.body.object).toBe("list");
    expect(list.body.has_more).toBe(false);
    expect(list.body.data.map((d) => d.id)).toEqual([b.body.id, a.body.id]);
    for (const d of list.body.data) expect(d).not.toHaveProperty("secret");
    const { secret: _secret, ...withoutSecret } = b.body;
    expect(list.body.data[0]).toEqual(withoutSecret);
    expect(list.text).not.toContain(a.body.secret);
  });

  it("enabled_events accepts every known type and *", async () => {
    const types = [
      "customer.created",
      "customer.updated",
      "customer.deleted",
      "payment_instruction.created",
      "payment_instruction.updated",
      "payment_instruction.deleted",
      "tax_id.verification.completed",
      "tax_id.verification.failed",
      "invoice.issued",
    ];
    const res = await api.post("/v1/event-destinations", { ...validDestination, enabled_events: types });
    expectStatus(res, 201);
    expect(res.body.enabled_events).toEqual(types);
    const star = await api.post("/v1/event-destinations", { ...validDestination, enabled_events: ["*"] });
    expectStatus(star, 201);
    expect(star.body.enabled_events).toEqual(["*"]);
  });

  it("an unknown event type is 400 with param enabled_events.<index> and creates nothing", async () => {
    const before = await destinationCount(account.id);
    const res = await api.post("/v1/event-destinations", {
      ...validDestination,
      enabled_events: ["customer.created", "customer.exploded"],
    });
    expectError(res, 400, "parameter_invalid", "enabled_events.1");
    expect(await destinationCount(account.id)).toBe(before);
  });

  it("an empty enabled_events is 400", async () => {
    const before = await destinationCount(account.id);
    const res = await api.post("/v1/event-destinations", { ...validDestination, enabled_events: [] });
    expectError(res, 400, "parameter_invalid", "enabled_events");
    expect(await destinationCount(account.id)).toBe(before);
  });

  it("more than 100 enabled_events entries is 400, and 100 is accepted", async () => {
    const before = await destinationCount(account.id);
    const over = await api.post("/v1/event-destinations", {
      ...validDestination,
      enabled_events: Array(101).fill("customer.created"),
    });
    expectError(over, 400, "parameter_invalid", "enabled_events");
    expect(await destinationCount(account.id)).toBe(before);
    const max = await api.post("/v1/event-destinations", {
      ...validDestination,
      enabled_events: Array(100).fill("customer.created"),
    });
    expectStatus(max, 201);
  });

  it("maximum lengths: a name of 256 characters and a url of 2048 are accepted, one more is 400 on create and update, writing nothing", async () => {
    const base = "https://hooks.example.com/";
    const longUrl = (n: number) => base + "a".repeat(n - base.length);
    const created = await api.post("/v1/event-destinations", {
      ...validDestination,
      name: "n".repeat(256),
      url: longUrl(2048),
    });
    expectStatus(created, 201);
    expect([created.body.name.length, created.body.url.length]).toEqual([256, 2048]);
    const before = await destinationCount(account.id);
    for (const [field, value] of [
      ["name", "n".repeat(257)],
      ["url", longUrl(2049)],
    ] as const) {
      const body = { ...validDestination, [field]: value };
      expectError(await api.post("/v1/event-destinations", body), 400, "parameter_invalid", field);
      const patch = await api.patch(`/v1/event-destinations/${created.body.id}`, { [field]: value });
      expectError(patch, 400, "parameter_invalid", field);
    }
    expect(await destinationCount(account.id)).toBe(before);
    expect(await readDestination(account.testKey, created.body.id)).toMatchObject({
      name: "n".repeat(256),
      url: longUrl(2048),
    });
  });

  it("name, url and enabled_events are required", async () => {
    for (const field of ["name", "url", "enabled_events"]) {
      const body: Record<string, unknown> = { ...validDestination };
      delete body[field];
      expectError(await api.post("/v1/event-destinations", body), 400, "parameter_missing", field);
    }
  });
});

describe("event destinations: update, delete, enable, disable", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  it("PATCH changes name, url and enabled_events and keeps the secret (which it does not return)", async () => {
    const created = await api.post("/v1/event-destinations", validDestination);
    expectStatus(created, 201);
    const res = await api.patch(`/v1/event-destinations/${created.body.id}`, {
      name: "Renamed",
      url: "https://other.example.org/hooks",
      enabled_events: ["*"],
    });
    expectStatus(res, 200);
    const { secret, ...withoutSecret } = created.body;
    expect(res.body).toEqual({
      ...withoutSecret,
      name: "Renamed",
      url: "https://other.example.org/hooks",
      enabled_events: ["*"],
      updated_at: expect.stringMatching(ISO),
    });
    expect(await readDestination(account.testKey, created.body.id)).toEqual({ ...res.body, secret });
  });

  it("enabled_events drops repeated types, keeping the first order", async () => {
    const res = await api.post("/v1/event-destinations", {
      ...validDestination,
      enabled_events: ["customer.updated", "customer.created", "customer.updated", "customer.created"],
    });
    expectStatus(res, 201);
    expect(res.body.enabled_events).toEqual(["customer.updated", "customer.created"]);
    const patched = await api.patch(`/v1/event-destinations/${res.body.id}`, {
      enabled_events: ["invoice.issued", "invoice.issued"],
    });
    expect(patched.body.enabled_events).toEqual(["invoice.issued"]);
  });

  it("PATCH with an empty body returns the destination unchanged, updated_at included", async () => {
    const { id } = await createDestination(account.testKey);
    const before = await readDestination(account.testKey, id);
    useClock(Date.now() + 3_600_000);
    const res = await api.patch(`/v1/event-destinations/${id}`, {});
    expectStatus(res, 200);
    const { secret: _secret, ...withoutSecret } = before;
    expect(res.body).toEqual(withoutSecret);
    expect(await readDestination(account.testKey, id)).toEqual(before);
  });

  it("PATCH of one field leaves the others unchanged", async () => {
    const created = await api.post("/v1/event-destinations", validDestination);
    const res = await api.patch(`/v1/event-destinations/${created.body.id}`, { name: "Only the name" });
    expectStatus(res, 200);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(res.body).toEqual({
      ...withoutSecret,
      name: "Only the name",
      updated_at: expect.stringMatching(ISO),
    });
  });

  it("PATCH rejects an unknown event type, an empty enabled_events and unknown fields", async () => {
    const { id } = await createDestination(account.testKey);
    const before = await readDestination(account.testKey, id);
    expectError(
      await api.patch(`/v1/event-destinations/${id}`, { enabled_events: ["*", "nope"] }),
      400,
      "parameter_invalid",
      "enabled_events.1",
    );
    expectError(
      await api.patch(`/v1/event-destinations/${id}`, { enabled_events: [] }),
      400,
      "parameter_invalid",
      "enabled_events",
    );
    expectError(
      await api.patch(`/v1/event-destinations/${id}`, { secret: "whsec_mine" }),
      400,
      "parameter_unknown",
      "secret",
    );
    expectError(
      await api.patch(`/v1/event-destinations/${id}`, { status: "disabled" }),
      400,
      "parameter_unknown",
      "status",
    );
    expect(await readDestination(account.testKey, id)).toEqual(before);
  });

  it("DELETE returns 204 with no body, after which the destination is 404 and absent from the list", async () => {
    const own = client((await createAccount()).testKey);
    const { id } = await createDestination(own);
    const res = await own.del(`/v1/event-destinations/${id}`);
    expectStatus(res, 204);
    expect(res.text).toBe("");
    expectError(await own.get(`/v1/event-destinations/${id}`), 404, "resource_missing");
    expectError(await own.del(`/v1/event-destinations/${id}`), 404, "resource_missing");
    expectError(await own.patch(`/v1/event-destinations/${id}`, { name: "x" }), 404, "resource_missing");
    const list = await own.get("/v1/event-destinations");
    expect(list.body.data).toEqual([]);
  });

  it("disable sets status disabled with disabled_reason requested; enable sets it back with a null reason", async () => {
    const { id } = await createDestination(account.testKey);
    const disabled = await api.post(`/v1/event-destinations/${id}/disable`);
    expectStatus(disabled, 200);
    expect(disabled.body).toMatchObject({ id, status: "disabled", disabled_reason: "requested" });
    expect(await readDestination(account.testKey, id)).toMatchObject({
      status: "disabled",
      disabled_reason: "requested",
    });

    const enabled = await api.post(`/v1/event-destinations/${id}/enable`);
    expectStatus(enabled, 200);
    expect(enabled.body).toMatchObject({ id, status: "enabled", disabled_reason: null });
    expect(await readDestination(account.testKey, id)).toEqual({
      ...enabled.body,
      secret: expect.any(String),
    });
  });

  it("enable clears a delivery_failures disable and its failing streak", async () => {
    const { id } = await createDestination(account.testKey);
    await env.DB.prepare(
      "UPDATE event_destinations SET status = 'disabled', disabled_reason = 'delivery_failures', failing_since = ? WHERE id = ?",
    )
      .bind("2020-01-01T00:00:00.000Z", id)
      .run();
    expect(await readDestination(account.testKey, id)).toMatchObject({
      status: "disabled",
      disabled_reason: "delivery_failures",
    });
    const res = await api.post(`/v1/event-destinations/${id}/enable`);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ status: "enabled", disabled_reason: null });
    const row = await env.DB.prepare("SELECT failing_since FROM event_destinations WHERE id = ?")
      .bind(id)
      .first<{ failing_since: string | null }>();
    expect(row?.failing_since).toBeNull();
  });

  it("enable and disable of an unknown destination are 404", async () => {
    expectError(await api.post("/v1/event-destinations/ed_nope/enable"), 404, "resource_missing");
    expectError(await api.post("/v1/event-destinations/ed_nope/disable"), 404, "resource_missing");
  });
});
