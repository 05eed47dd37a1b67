import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, client, expectStatus, request } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createAccount, createCustomer, type TestAccount, validCustomer } from "../../helpers/factories";
import { expectError } from "../../helpers/security";
import type { ApiError } from "../../helpers/types";

const MAX_BODY = 1024 * 1024;

/** Sends any body (bytes, a stream) straight to the worker, for what `request` cannot send. */
async function send(method: string, path: string, init: { body: BodyInit; headers: Record<string, string> }) {
  const res = await exports.default.fetch(`http://api.test${path}`, { method, ...init });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers, text } satisfies ApiResponse;
}

/** A JSON text of exactly `bytes` bytes: a customer whose name pads it out. */
function customerJsonOfSize(bytes: number): string {
  const empty = JSON.stringify({ ...validCustomer, name: "" });
  return JSON.stringify({ ...validCustomer, name: "x".repeat(bytes - empty.length) });
}

describe("error model", () => {
  let account: TestAccount;
  let api: ApiClient;
  let auth: Record<string, string>;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
    auth = { authorization: `Bearer ${account.testKey}` };
  });

  const customerCount = () => countRows("customers", account.id);

  describe("routes and request ids", () => {
    it.each([
      ["GET", "/v1/nothing-here"],
      ["POST", "/v1/customers/cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR/nothing"],
      ["PUT", "/v1/customers/cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR"],
      ["GET", "/nothing-here"],
    ])("an unknown route (%s %s) is a JSON 404 resource_missing with a request id", async (method, path) => {
      const res = await request(method, path, undefined, { key: account.testKey });
      expectError(res, 404, "resource_missing");
      expect(res.body.error.message).toContain(path);
    });

    it("an unknown /v1 route without a key is a 401 first; outside /v1, where no key is asked, a 404", async () => {
      expectError(await request("GET", "/v1/nothing-here"), 401, "api_key_missing");
      expectError(await request("GET", "/nothing-here"), 404, "resource_missing");
    });

    it("a body that is not JSON is refused before an unknown /v1 route is looked up", async () => {
      const res = await request("POST", "/v1/nothing-here", undefined, {
        key: account.testKey,
        rawBody: "plain text",
        headers: { "content-type": "text/plain" },
      });
      expectError(res, 415, "unsupported_media_type");
    });

    it("every response carries a Request-Id header, equal to error.request_id on errors", async () => {
      const created = await api.post("/v1/customers", validCustomer);
      const responses: [number, ApiResponse][] = [
        [200, await request("GET", "/health")],
        [200, await api.get(`/v1/customers/${created.body.id}`)],
        [201, created],
        [204, await api.del(`/v1/customers/${created.body.id}`)],
        [400, await api.post("/v1/customers", {})],
        [401, await request("GET", "/v1/customers")],
        [404, await api.get(`/v1/customers/${created.body.id}`)],
        [
          413,
          await request("POST", "/v1/customers", undefined, {
            key: account.testKey,
            rawBody: "x".repeat(MAX_BODY + 1),
            headers: { "content-type": "application/json" },
          }),
        ],
        [415, await request("POST", "/v1/customers", undefined, { key: account.testKey, rawBody: "{}" })],
      ];
      const seen = new Set<string>();
      for (const [status, res] of responses) {
        expectStatus(res, status);
        const id = res.headers.get("request-id");
        expect(id, `${status}: ${res.text}`).toMatch(/^req_[0-9A-Z]{26}$/);
        if (status >= 400) expect((res.body as ApiError).error.request_id, res.text).toBe(id);
        seen.add(id as string);
      }
      expect(seen.size).toBe(responses.length);
    });
  });

  describe("request bodies", () => {
    it.each([
      ["truncated JSON", '{"name":'],
      ["trailing garbage", '{"name":"A"} x'],
      ["single quotes", "{'name':'A'}"],
      ["a trailing comma", '{"name":"A",}'],
      ["only whitespace", "   "],
    ])("malformed JSON (%s) is 400 json_invalid and writes nothing", async (_, rawBody) => {
      const before = await customerCount();
      const res = await request("POST", "/v1/customers", undefined, {
        key: account.testKey,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "json_invalid");
      expect(await customerCount()).toBe(before);
    });

    it("malformed JSON on an update is 400 json_invalid", async () => {
      const created = await createCustomer(api);
      const res = await request("PATCH", `/v1/customers/${created.id}`, undefined, {
        key: account.testKey,
        rawBody: "{",
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "json_invalid");
    });

    it.each([
      ["text/plain", JSON.stringify(validCustomer)],
      ["application/x-www-form-urlencoded", "name=Acme&tax_id[country]=ES"],
      [
        "multipart/form-data; boundary=x",
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAcme\r\n--x--',
      ],
      ["application/jsonx", JSON.stringify(validCustomer)],
    ])("a body sent as %s is 415 unsupported_media_type and writes nothing", async (type, rawBody) => {
      const before = await customerCount();
      const res = await request("POST", "/v1/customers", undefined, {
        key: account.testKey,
        rawBody,
        headers: { "content-type": type },
      });
      expectError(res, 415, "unsupported_media_type");
      expect(await customerCount()).toBe(before);
    });

    it("application/json with a charset parameter is accepted", async () => {
      const res = await request("POST", "/v1/customers", undefined, {
        key: account.testKey,
        rawBody: JSON.stringify(validCustomer),
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      expectStatus(res, 201);
    });

    it("a body of exactly 1 MiB passes the size limit (then fails on the name length)", async () => {
      const body = customerJsonOfSize(MAX_BODY);
      expect(new TextEncoder().encode(body).length).toBe(MAX_BODY);
      const res = await send("POST", "/v1/customers", {
        body,
        headers: { ...auth, "content-type": "application/json" },
      });
      expectError(res, 400, "parameter_invalid", "name");
    });

    it("a body of 1 MiB + 1 byte with its content-length is 413 request_too_large and writes nothing", async () => {
      const before = await customerCount();
      const body = customerJsonOfSize(MAX_BODY + 1);
      const res = await send("POST", "/v1/customers", {
        body,
        headers: { ...auth, "content-type": "application/json", "content-length": String(MAX_BODY + 1) },
      });
      expectError(res, 413, "request_too_large");
      expect(await customerCount()).toBe(before);
    });

    it("a streamed body over 1 MiB without a content-length is 413 request_too_large", async () => {
      const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"name":"'));
          if (sent > MAX_BODY + chunk.length) return controller.close();
          controller.enqueue(chunk);
          sent += chunk.length;
        },
      });
      const res = await send("POST", "/v1/customers", {
        body: stream,
        headers: { ...auth, "content-type": "application/json" },
      });
      expectError(res, 413, "request_too_large");
    });

    it("a big JSON string in an update is 413 and leaves the customer unchanged", async () => {
      const created = await createCustomer(api);
      const res = await api.patch(`/v1/customers/${created.id}`, { name: "x".repeat(MAX_BODY) });
      expectError(res, 413, "request_too_large");
      expect((await api.get(`/v1/customers/${created.id}`)).body).toEqual(created);
    });

    it("an empty body on POST /v1/customers is 400 parameter_missing param name", async () => {
      const res = await request("POST", "/v1/customers", undefined, { key: account.testKey });
      expectError(res, 400, "parameter_missing", "name");
    });

    it("an empty JSON object on POST /v1/customers is 400 parameter_missing param name", async () => {
      expectError(await api.post("/v1/customers", {}), 400, "parameter_missing", "name");
    });

    it.each([
      ["an array", []],
      ["an array of a customer", [validCustomer]],
      ["a string", "Acme"],
      ["a number", 5],
      ["null", null],
    ])("a JSON body that is %s is 400 parameter_invalid", async (_, body) => {
      const before = await customerCount();
      const res = await request("POST", "/v1/customers", undefined, {
        key: account.testKey,
        rawBody: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "parameter_invalid");
      expect(await customerCount()).toBe(before);
    });

    it.each([
      ["name", { name: 5 }],
      ["name", { name: true }],
      ["name", { name: ["Acme"] }],
      ["tax_id", { tax_id: "B12345674" }],
      ["tax_id.value", { tax_id: { ...validCustomer.tax_id, value: 12345674 } }],
      ["tax_id.type", { tax_id: { ...validCustomer.tax_id, type: "vat" } }],
      ["email", { email: 5 }],
      ["phone", { phone: 600000000 }],
      ["address", { address: ["Calle Mayor 1"] }],
      ["invoice_prefix", { invoice_prefix: 123 }],
    ])("a wrong type is 400 parameter_invalid naming the field (%s)", async (param, patch) => {
      const before = await customerCount();
      const res = await api.post("/v1/customers", { ...validCustomer, ...patch });
      expectError(res, 400, "parameter_invalid", param);
      expect(await customerCount()).toBe(before);
    });

    it.each([
      ["name", { name: undefined }],
      ["tax_id", { tax_id: undefined }],
      ["tax_id.country", { tax_id: { type: "es_nif", value: "B12345674" } }],
      ["tax_id.type", { tax_id: { country: "ES", value: "B12345674" } }],
      ["address.line_1", { address: { city: "Madrid", postal_code: "28013", country: "ES" } }],
      ["address.city", { address: { line_1: "Calle Mayor 1", postal_code: "28013", country: "ES" } }],
      ["address.postal_code", { address: { line_1: "Calle Mayor 1", city: "Madrid", country: "ES" } }],
      ["address.country", { address: { line_1: "Calle Mayor 1", city: "Madrid", postal_code: "28013" } }],
    ])("a missing required field on create is 400 parameter_missing (%s)", async (param, patch) => {
      expectError(
        await api.post("/v1/customers", { ...validCustomer, ...patch }),
        400,
        "parameter_missing",
        param,
      );
    });

    it("duplicate JSON keys: the last value wins", async () => {
      const rawBody =
        '{"name":"First","name":"Last","tax_id":{"country":"FR","country":"ES","type":"es_nif","value":"B12345674"}}';
      const res = await request("POST", "/v1/customers", undefined, {
        key: account.testKey,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expectStatus(res, 201);
      expect(res.body.name).toBe("Last");
      expect(res.body.tax_id.country).toBe("ES");
    });
  });
});

describe("unknown parameters are 400 parameter_unknown on every route, with or without a schema", () => {
  it("a query parameter on a route that takes none (GET /v1/account, a retrieve, the public catalog)", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const customer = await createCustomer(api);
    expectError(await api.get("/v1/account?bogus=1"), 400, "parameter_unknown", "bogus");
    expectError(await api.get(`/v1/customers/${customer.id}?expand=x`), 400, "parameter_unknown", "expand");
    expectError(await request("GET", "/v1/tax-regimes/es?v=2"), 400, "parameter_unknown", "v");
    expectStatus(await api.get("/v1/account"), 200);
  });

  it("a body field on an action that takes none (POST …/disable, DELETE) writes nothing", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const dest = await api.post("/v1/event-destinations", {
      name: "Hooks",
      url: "https://hooks.example.com/in",
      // Not an event this test causes: nothing is delivered.
      enabled_events: ["invoice.issued"],
    });
    expectStatus(dest, 201);
    const res = await api.post(`/v1/event-destinations/${dest.body.id}/disable`, { bogus: 1 });
    expectError(res, 400, "parameter_unknown", "bogus");
    expect((await api.get(`/v1/event-destinations/${dest.body.id}`)).body.status).toBe("enabled");
    const customer = await createCustomer(api);
    const del = await request(
      "DELETE",
      `/v1/customers/${customer.id}`,
      { force: true },
      { key: account.testKey },
    );
    expectError(del, 400, "parameter_unknown", "force");
    expectStatus(await api.get(`/v1/customers/${customer.id}`), 200);
    // No body at all, or an empty object, is what these actions take.
    expectStatus(await api.post(`/v1/event-destinations/${dest.body.id}/disable`, {}), 200);
  });
});

describe("authentication comes before body checks", () => {
  it.each([
    ["a body that is not JSON", { rawBody: "name=x", headers: { "content-type": "text/plain" } }],
    ["malformed JSON", { rawBody: "{", headers: { "content-type": "application/json" } }],
  ])("a request without a key and with %s is a 401", async (_, options) => {
    const res = await request("POST", "/v1/customers", undefined, { key: null, ...options });
    expectStatus(res, 401);
    expect(res.body.error.code).toBe("api_key_missing");
  });
});
