import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { type ApiResponse, expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { beforeBatches, countRows } from "../../helpers/db";
import { insertEvent, validDestination } from "../../helpers/factories";
import { expectError } from "../../helpers/security";
import { receiverPerTest } from "../../helpers/webhooks";

/** The request's idempotency mark in its write batch (src/http/idempotency.ts). */
const MARK = /CASE WHEN EXISTS \(SELECT 1 FROM "idempotency_keys"/i;

const post = (key: string, path: string, body: unknown, idempotencyKey?: string) =>
  request("POST", path, body, {
    key,
    ...(idempotencyKey !== undefined && { headers: { "idempotency-key": idempotencyKey } }),
  });

/**
 * The interleaving the fence is for: the first request (`path`, `body`, key "slow") claims its
 * key and stalls right before its write batch; 61 s later (past the 60 s after which a claim is
 * taken for dead) the same request with the same key takes the key over and runs to its end,
 * then `meanwhile` runs (another change, without a key); only then does the first request's
 * write batch go. Returns both answers.
 */
async function interleave(
  apiKey: string,
  path: string,
  body: unknown,
  meanwhile: () => Promise<unknown> = async () => {},
): Promise<{ first: ApiResponse; second: ApiResponse | undefined }> {
  const clock = useClock(Date.now());
  let second: ApiResponse | undefined;
  let stalled = false;
  beforeBatches(async (sql) => {
    if (stalled || !MARK.test(sql)) return;
    stalled = true;
    clock.advance(61_000);
    second = await post(apiKey, path, body, "slow");
    await meanwhile();
  });
  const first = await post(apiKey, path, body, "slow");
  // Only the batch hook: the receiver's fetch mock stays.
  vi.mocked(env.DB.withSession).mockRestore();
  return { first, second };
}

const t = receiverPerTest();

async function destination(body: object = validDestination): Promise<{ id: string; secret: string }> {
  const res = await post(t.account.testKey, "/v1/event-destinations", body);
  expectStatus(res, 201);
  return res.body as { id: string; secret: string };
}

async function storedSecrets(id: string) {
  return env.DB.prepare("SELECT secret, previous_secret FROM event_destinations WHERE id = ?")
    .bind(id)
    .first<{ secret: string; previous_secret: string | null }>();
}

describe("a POST whose Idempotency-Key was taken over while it ran commits nothing beside its successor", () => {
  it("rotate-secret: the first rotation fails 409 and the secret is the second's, with the original kept as the previous one", async () => {
    const dest = await destination();
    const path = `/v1/event-destinations/${dest.id}/rotate-secret`;
    const { first, second } = await interleave(t.account.testKey, path, {});
    expect(second?.status, second?.text).toBe(200);
    expectError(first, 409, "idempotency_key_in_use");
    const rotated = (second as ApiResponse<{ secret: string }>).body.secret;
    // One rotation: the receiver verifies with the second's secret, or still the original one.
    expect(await storedSecrets(dest.id)).toEqual({ secret: rotated, previous_secret: dest.secret });
    const replay = await post(t.account.testKey, path, {}, "slow");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(second?.text);
  });

  it("create: one destination, the second request's", async () => {
    const { first, second } = await interleave(t.account.testKey, "/v1/event-destinations", validDestination);
    expect(second?.status, second?.text).toBe(201);
    expectError(first, 409, "idempotency_key_in_use");
    expect(await countRows("event_destinations", t.account.id)).toBe(1);
    const retrieved = await request(
      "GET",
      `/v1/event-destinations/${(second as ApiResponse<{ id: string }>).body.id}`,
      undefined,
      {
        key: t.account.testKey,
      },
    );
    expectStatus(retrieved, 200);
  });

  it("disable: the stale disable cannot undo an enable made after the takeover", async () => {
    const dest = await destination();
    const path = `/v1/event-destinations/${dest.id}/disable`;
    const { first, second } = await interleave(t.account.testKey, path, undefined, () =>
      post(t.account.testKey, `/v1/event-destinations/${dest.id}/enable`, undefined),
    );
    expect(second?.status, second?.text).toBe(200);
    expectError(first, 409, "idempotency_key_in_use");
    const now = await request("GET", `/v1/event-destinations/${dest.id}`, undefined, {
      key: t.account.testKey,
    });
    expect((now.body as { status: string }).status, now.text).toBe("enabled");
  });

  it("enable: the stale enable cannot undo a disable made after the takeover", async () => {
    const dest = await destination();
    expectStatus(await post(t.account.testKey, `/v1/event-destinations/${dest.id}/disable`, undefined), 200);
    const path = `/v1/event-destinations/${dest.id}/enable`;
    const { first, second } = await interleave(t.account.testKey, path, undefined, () =>
      post(t.account.testKey, `/v1/event-destinations/${dest.id}/disable`, undefined),
    );
    expect(second?.status, second?.text).toBe(200);
    expectError(first, 409, "idempotency_key_in_use");
    const now = await request("GET", `/v1/event-destinations/${dest.id}`, undefined, {
      key: t.account.testKey,
    });
    expect((now.body as { status: string }).status, now.text).toBe("disabled");
  });

  it("ping: one ping event, one delivery queued", async () => {
    const dest = await destination();
    const events = await countRows("events", t.account.id);
    const sent = vi.spyOn(env.WEBHOOKS, "send");
    const { first, second } = await interleave(
      t.account.testKey,
      `/v1/event-destinations/${dest.id}/ping`,
      undefined,
    );
    const queued = sent.mock.calls.length;
    expect(second?.status, second?.text).toBe(200);
    expectError(first, 409, "idempotency_key_in_use");
    expect(await countRows("events", t.account.id)).toBe(events + 1);
    expect(queued).toBe(1);
  });

  it("resend: one delivery queued", async () => {
    const dest = await destination();
    const event = await insertEvent(t.account.id);
    const sent = vi.spyOn(env.WEBHOOKS, "send");
    const { first, second } = await interleave(
      t.account.testKey,
      `/v1/event-destinations/${dest.id}/resend`,
      { event },
    );
    const queued = sent.mock.calls.length;
    expect(second?.status, second?.text).toBe(200);
    expectError(first, 409, "idempotency_key_in_use");
    expect(queued).toBe(1);
  });
});

describe("a POST whose delivery cannot be queued frees its Idempotency-Key: the retry runs", () => {
  it.each([
    ["ping", "ping", undefined],
    ["resend", "resend", "event"],
  ] as const)("%s", async (_, action, withEvent) => {
    const dest = await destination();
    const body = withEvent ? { event: await insertEvent(t.account.id) } : undefined;
    const path = `/v1/event-destinations/${dest.id}/${action}`;
    vi.spyOn(env.WEBHOOKS, "send").mockRejectedValueOnce(new Error("queue unavailable"));
    expectError(await post(t.account.testKey, path, body, "retry-me"), 500, "api_error");
    const retry = await post(t.account.testKey, path, body, "retry-me");
    expectStatus(retry, 200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });
});
