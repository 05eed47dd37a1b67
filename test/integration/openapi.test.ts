/**
 * The OpenAPI document against the running app: every mounted route is documented, the
 * response check that `request()` applies to every response bites, the errors a test can only
 * provoke around `request()` are documented too, and a webhook delivery is what the
 * document's `webhooks` say.
 */
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { client, expectStatus } from "../helpers/api";
import { createAccount, createCustomer, createDestination, validCustomer } from "../helpers/factories";
import { checkResponse, openApi, schemaErrors } from "../helpers/openapi";
import { captureFetch } from "../helpers/webhooks";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ "content-type": "application/json", "request-id": "req_x", ...headers }),
  text: JSON.stringify(body),
});

const envelope = (code: string, type = "invalid_request_error") => ({
  error: { type, code, message: "m", request_id: "req_x" },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the document describes every route the app mounts", () => {
  it("every mounted route is a documented operation, and every documented operation is mounted", () => {
    const mounted = app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    const documented = Object.entries(openApi.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...new Set(documented)].sort()).toEqual([...new Set(mounted)].sort());
  });
});

describe("every response a test receives is checked against the document", () => {
  it("a documented response passes", async () => {
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api);
    const res = await api.get(`/v1/customers/${customer.id}`);
    expectStatus(res, 200);
    expect(() => checkResponse("GET", `/v1/customers/${customer.id}`, res)).not.toThrow();
  });

  it("a field the document does not describe fails, naming the operation, status and field", async () => {
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api);
    expect(() =>
      checkResponse("GET", `/v1/customers/${customer.id}`, json(200, { ...customer, nickname: "x" })),
    ).toThrow(/GET \/v1\/customers\/\{id\} \(retrieveCustomer\) answered 200: .*nickname/);
  });

  it("a missing required field fails", async () => {
    const api = client((await createAccount()).testKey);
    const { email: _, ...customer } = await createCustomer(api);
    expect(() => checkResponse("GET", `/v1/customers/${customer.id}`, json(200, customer))).toThrow(/email/);
  });

  it("a status the operation does not document fails", () => {
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", json(409, envelope("invoice_prefix_taken"))),
    ).toThrow(/answered 409: a status the document does not list/);
  });

  it("an error code the operation does not answer under that status fails", () => {
    expect(() =>
      checkResponse("POST", "/v1/payment-instructions", json(400, envelope("series_mismatch"))),
    ).toThrow(/createPaymentInstruction\) answered 400: a body the document does not allow/);
  });

  it("a required header missing fails (429 without Retry-After)", () => {
    const res = json(429, envelope("rate_limited", "rate_limit_error"));
    expect(() => checkResponse("GET", "/v1/customers", res)).toThrow(/no Retry-After header/);
    res.headers.set("retry-after", "10");
    expect(() => checkResponse("GET", "/v1/customers", res)).not.toThrow();
  });

  it("a content type the operation does not document fails", () => {
    const res = {
      status: 200,
      headers: new Headers({ "content-type": "text/html", "request-id": "r" }),
      text: "x",
    };
    expect(() => checkResponse("GET", "/v1/invoices/inv_x/pdf", res)).toThrow(/content type "text\/html"/);
  });

  it("a request no operation matches must answer the error envelope with its code's status", () => {
    expect(() => checkResponse("GET", "/v1/nothing-here", json(200, {}))).toThrow(/no such operation/);
    expect(() => checkResponse("GET", "/v1/nothing-here", json(404, envelope("api_key_missing")))).toThrow(
      /belongs to status 401/,
    );
    expect(() =>
      checkResponse("GET", "/v1/nothing-here", json(404, envelope("resource_missing"))),
    ).not.toThrow();
  });
});

describe("error bodies are held to the whole envelope", () => {
  const notFound = (error: Record<string, unknown>) => json(404, { error });
  const full = { type: "invalid_request_error", code: "resource_missing", message: "m", request_id: "req_x" };

  it("the envelope as errorResponse writes it passes, with or without param", () => {
    expect(() => checkResponse("GET", "/v1/customers/cus_x", notFound(full))).not.toThrow();
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", notFound({ ...full, param: "id" })),
    ).not.toThrow();
  });

  it("an error without its message or request_id fails", () => {
    const { message: _, ...noMessage } = full;
    expect(() => checkResponse("GET", "/v1/customers/cus_x", notFound(noMessage))).toThrow(
      /retrieveCustomer\) answered 404: a body the document does not allow: .*message/,
    );
    const { request_id: __, ...noRequestId } = full;
    expect(() => checkResponse("GET", "/v1/customers/cus_x", notFound(noRequestId))).toThrow(/request_id/);
  });

  it("a field the envelope does not have fails, in the error or beside it", () => {
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", notFound({ ...full, doc_url: "https://x" })),
    ).toThrow(/doc_url/);
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", json(404, { error: full, detail: "x" })),
    ).toThrow(/detail/);
  });

  it("a type other than its status's fails", () => {
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", notFound({ ...full, type: "api_error" })),
    ).toThrow(/answered 404: a body the document does not allow: .*type/);
  });

  it("a request_id other than the Request-Id header fails", () => {
    expect(() =>
      checkResponse("GET", "/v1/customers/cus_x", notFound({ ...full, request_id: "req_other" })),
    ).toThrow(/error.request_id is not the Request-Id header/);
    // A replay is the first response byte for byte: its body names the first request.
    const replay = json(400, envelope("idempotency_key_reused"), { "idempotent-replayed": "true" });
    replay.text = replay.text.replace("req_x", "req_first");
    expect(() => checkResponse("POST", "/v1/customers", replay)).not.toThrow();
  });
});

describe("errors a test provokes around request() are documented too", () => {
  /** Sends straight to the Worker, then holds the answer to the document as request() does. */
  async function raw(method: string, path: string, init: RequestInit, bindings?: Partial<Env>) {
    const res = bindings
      ? await app.fetch(
          new Request(`http://api.test${path}`, { method, ...init }),
          { ...env, ...bindings },
          createExecutionContext(),
        )
      : await exports.default.fetch(`http://api.test${path}`, { method, ...init });
    const received = { status: res.status, headers: res.headers, text: await res.text() };
    checkResponse(method, path, received);
    return { ...received, code: (JSON.parse(received.text) as { error: { code: string } }).error.code };
  }

  it("a body that is not UTF-8 (400 json_invalid), a streamed body over 1 MiB (413)", async () => {
    const headers = {
      authorization: `Bearer ${(await createAccount()).testKey}`,
      "content-type": "application/json",
    };
    const bytes = new TextEncoder().encode(JSON.stringify({ ...validCustomer, name: "Acme X" }));
    bytes.set([0xc3, 0x28], bytes.indexOf("X".charCodeAt(0)));
    expect(await raw("POST", "/v1/customers", { headers, body: bytes })).toMatchObject({
      status: 400,
      code: "json_invalid",
    });
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 1024 * 1024) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    expect(await raw("POST", "/v1/customers", { headers, body })).toMatchObject({
      status: 413,
      code: "request_too_large",
    });
  });

  it("429 rate_limited from each limiter: per key, per address without a valid key, the public catalog", async () => {
    const refuse = { limit: async () => ({ success: false }) } as RateLimit;
    const limiters = { KEY_RATE_LIMITER: refuse, ADDRESS_RATE_LIMITER: refuse, CATALOG_RATE_LIMITER: refuse };
    // An address of this test's own: a refused address is remembered for its period.
    const address = "198.51.100.231";
    const { testKey } = await createAccount();
    const sends: [string, Record<string, string>][] = [
      ["/v1/account", { authorization: `Bearer ${testKey}` }],
      ["/v1/account", { authorization: "Bearer sk_test_unknown", "cf-connecting-ip": address }],
      ["/v1/tax-regimes/es", { "cf-connecting-ip": address }],
    ];
    for (const [path, headers] of sends) {
      expect(await raw("GET", path, { headers }, limiters), path).toMatchObject({
        status: 429,
        code: "rate_limited",
      });
    }
  });
});

describe("webhooks", () => {
  it("a delivery POSTs the thin event of its type, signed in Service-Signature, as the document says", async () => {
    const { calls } = captureFetch();
    const api = client((await createAccount()).testKey);
    const destination = await createDestination(api);
    await createCustomer(api);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === destination.url).length).toBe(1), {
      timeout: 5000,
      interval: 10,
    });
    const [call] = calls.filter((c) => c.url === destination.url);
    const body = JSON.parse(call?.body as string);
    const webhook = openApi.webhooks[body.type]?.post;
    expect(webhook, body.type).toBeDefined();
    const schema = webhook?.requestBody.content["application/json"]?.schema as Record<string, unknown>;
    expect(schemaErrors(schema, body)).toBeNull();
    expect(schemaErrors(schema, { ...body, type: "customer.deleted" })).toMatch(/type/);
    expect(schemaErrors(schema, { ...body, data: {} })).toMatch(/data/);
    const signature = (webhook as unknown as { parameters: { name: string; schema: { pattern: string } }[] })
      .parameters[0];
    expect(signature?.name).toBe("Service-Signature");
    expect(call?.headers.get("service-signature")).toMatch(new RegExp(signature?.schema.pattern as string));
  });

  it("a delivery during a secret rotation (two v1 signatures) still matches the documented header", async () => {
    const { calls } = captureFetch();
    const api = client((await createAccount()).testKey);
    const destination = await createDestination(api);
    expectStatus(await api.post(`/v1/event-destinations/${destination.id}/rotate-secret`, {}), 200);
    await createCustomer(api);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === destination.url).length).toBe(1), {
      timeout: 5000,
      interval: 10,
    });
    const header = calls.find((c) => c.url === destination.url)?.headers.get("service-signature") ?? "";
    expect(header.match(/v1=/g)).toHaveLength(2);
    const webhook = openApi.webhooks["customer.created"]?.post as unknown as {
      parameters: { schema: { pattern: string } }[];
    };
    expect(header).toMatch(new RegExp(webhook.parameters[0]?.schema.pattern as string));
  });
});
