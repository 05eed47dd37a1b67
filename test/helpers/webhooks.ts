import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, type MockInstance, vi } from "vitest";
import worker from "../../src/index";
import { nowMs } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import type { DeliveryMessage } from "../../src/webhooks/message";

/** One outbound request seen by the fetch mock. */
export type Call = { url: string; init: RequestInit; headers: Headers; body: string };

/** An HMAC-SHA256 written here, independently of src/webhooks/signature.ts: hex of HMAC(secret, message). */
export async function referenceHmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `t` and `v1` of a `Service-Signature` header of exactly the form `t=<digits>,v1=<64 hex>`, or null. */
export function parseSignature(header: string | null): { t: number; v1: string } | null {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  return m ? { t: Number(m[1]), v1: m[2] as string } : null;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replaces outbound `fetch` (the consumer runs in this isolate). The body is read from
 * `init`: a Request made in the consumer's I/O context cannot be read from the test.
 */
export function captureFetch(
  respond: (call: Call) => Response | Promise<Response> = () => new Response("ok"),
) {
  const calls: Call[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init = {}) => {
    const call: Call = {
      url: input instanceof Request ? input.url : String(input),
      init,
      headers: new Headers(init.headers),
      body: init.body as string,
    };
    calls.push(call);
    return respond(call);
  });
  return { calls, spy };
}

/**
 * Inserts a customer.created event straight into D1. By default it is already dispatched, so
 * nothing goes on the real queue; pass `dispatchedAt: null` for one whose dispatch never ran.
 */
export async function insertEvent(
  accountId: string,
  options: { live?: boolean; type?: string; ageMs?: number; dispatchedAt?: string | null } = {},
): Promise<string> {
  const id = newId("event");
  const customerId = newId("customer");
  const createdAt = new Date(nowMs() - (options.ageMs ?? 0)).toISOString();
  await env.DB.prepare(
    "INSERT INTO events (id, account_id, live, type, data, related_object_id, related_object_type, created_at, dispatched_at) VALUES (?, ?, ?, ?, ?, ?, 'customer', ?, ?)",
  )
    .bind(
      id,
      accountId,
      options.live ? 1 : 0,
      options.type ?? "customer.created",
      JSON.stringify({ id: customerId, object: "customer" }),
      customerId,
      createdAt,
      options.dispatchedAt === undefined ? createdAt : options.dispatchedAt,
    )
    .run();
  return id;
}

export async function dispatchedAt(eventId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?")
    .bind(eventId)
    .first<{ dispatched_at: string | null }>();
  return row?.dispatched_at ?? null;
}

/** Waits until no event is waiting for its dispatch (the after-response `waitUntil` finished). */
export async function allDispatched(): Promise<void> {
  await vi.waitFor(
    async () => {
      const row = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL").first<{
        n: number;
      }>();
      expect(row?.n).toBe(0);
    },
    { timeout: 5000, interval: 10 },
  );
}

export async function deliveryAttempts(destinationId: string) {
  const rows = await env.DB.prepare("SELECT * FROM delivery_attempts WHERE destination_id = ? ORDER BY id")
    .bind(destinationId)
    .all<Record<string, unknown>>();
  return rows.results;
}

/** The worker's queue handler with the runtime's full signature (it does not use `ctx`). */
const queueHandler = worker.queue as NonNullable<ExportedHandler<Env, DeliveryMessage>["queue"]>;

/**
 * Runs the consumer of `queue` on one batch (ids m1, m2…), spying on every message's
 * `retry`: the test pool's result drops `delaySeconds`, the spy keeps it.
 */
export async function runQueue(
  messages: { body: DeliveryMessage; attempts?: number }[],
  queue = "webhook-deliveries",
) {
  const batch = createMessageBatch<DeliveryMessage>(
    queue,
    messages.map((m, i) => ({
      id: `m${i + 1}`,
      timestamp: new Date(),
      attempts: m.attempts ?? 1,
      body: m.body,
    })),
  );
  const retries: MockInstance[] = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await queueHandler(batch, env, ctx);
  const result = await getQueueResult(batch, ctx);
  return { result, retries };
}
