/// <reference types="vite/client" />
/**
 * Logs without personal data: what the Worker writes to the console (kept by Workers Logs)
 * carries ids and codes, never a customer's name, email or Tax ID, a search query, a body
 * or a webhook payload; and the invocation logs Cloudflare writes itself drop query strings,
 * where `q` and the list filters travel.
 */

import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { log, logError } from "../../../src/lib/log";
import wranglerToml from "../../../wrangler.toml?raw";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createDestination, insertEvent, type TestAccount } from "../../helpers/factories";
import { captureFetch, runQueue } from "../../helpers/webhooks";

// Short enough that V8 quotes all of it in a JSON.parse error ("Zoë Ruiz" is not valid JSON).
const NAME = "Zoë Ruiz";
const EMAIL = "zoe.ruiz@example.org";
const TAX_ID = "B12345674";
const PERSONAL = [NAME, EMAIL, TAX_ID, "Zoë", "zoe.ruiz"];

let lines: string[] = [];

beforeEach(() => {
  lines = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Fails naming the first line that holds one of `secrets`. */
function expectNoneLogged(secrets: string[]): void {
  for (const line of lines) {
    for (const secret of secrets)
      expect(line, `a log line holds ${JSON.stringify(secret)}`).not.toContain(secret);
  }
}

/** The `[observability]` table of wrangler.toml, up to the next table. */
function observabilityTable(): string {
  const start = wranglerToml.search(/^\[observability\]\s*$/m);
  expect(start, "wrangler.toml has no [observability] table").toBeGreaterThanOrEqual(0);
  const rest = wranglerToml.slice(start + "[observability]".length);
  const next = rest.search(/^\[/m);
  return next === -1 ? rest : rest.slice(0, next);
}

describe("logs without personal data", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeEach(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  it("Workers observability is on, with query strings removed from the invocation logs", () => {
    const table = observabilityTable();
    expect(table).toMatch(/^enabled\s*=\s*true\s*$/m);
    expect(table).toMatch(/^redact_query_string\s*=\s*true\s*$/m);
  });

  it("creating, searching, reading and updating a customer logs none of its personal data", async () => {
    const body = { name: NAME, email: EMAIL, tax_id: { country: "ES", type: "es_nif", value: TAX_ID } };
    const created = await api.post("/v1/customers", body);
    expectStatus(created, 201);
    for (const q of [NAME, EMAIL, TAX_ID, "Zo"]) {
      expectStatus(await api.get(`/v1/customers?q=${encodeURIComponent(q)}`), 200);
    }
    expectStatus(await api.get(`/v1/customers/${created.body.id}`), 200);
    expectStatus(await api.patch(`/v1/customers/${created.body.id}`, { email: `new.${EMAIL}` }), 200);
    await afterResponses();
    expectNoneLogged(PERSONAL);
  });

  it("a request that fails on our side logs its request id and the error's class, not the data it read", async () => {
    // A snapshot that is not JSON: V8's SyntaxError message quotes the start of it.
    const eventId = await insertEvent(account.id);
    await env.DB.prepare("UPDATE events SET data = ? WHERE id = ?").bind(NAME, eventId).run();

    const res = await api.get(`/v1/events/${eventId}`);
    expectStatus(res, 500);
    expectNoneLogged(PERSONAL);
    const line = lines.find((l) => l.includes(res.body.error.request_id));
    expect(line, `no log line names the request id; lines: ${lines.join("\n")}`).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({ event: "request_error", error: "SyntaxError" });
  });

  it("a failing webhook delivery logs ids and codes, not the payload, the URL or the error text", async () => {
    const destination = await createDestination(api, { url: "https://hooks.example.com/in?token=s3cret" });
    const eventId = await insertEvent(account.id);
    // The receiver fails with text that quotes the request; then recording the attempt fails.
    captureFetch(() => {
      throw new TypeError(`connection reset by https://hooks.example.com/in?token=s3cret for ${NAME}`);
    });
    await env.DB.exec(
      "CREATE TRIGGER logs_test_fail BEFORE INSERT ON delivery_attempts BEGIN SELECT RAISE(ABORT, 'attempts are read-only'); END;",
    );
    try {
      await runQueue([{ body: { event_id: eventId, destination_id: destination.id } }]);
    } finally {
      await env.DB.exec("DROP TRIGGER logs_test_fail;");
    }
    expectNoneLogged([...PERSONAL, "s3cret", "hooks.example.com", destination.secret, "read-only"]);
    const line = lines.find((l) => l.includes("delivery_error"));
    expect(line, `no delivery_error line; lines: ${lines.join("\n")}`).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({
      message_id: "m1",
      error: "Error",
      error_codes: expect.arrayContaining(["D1_ERROR", "SQLITE_CONSTRAINT"]),
    });
  });
});

describe("the log helper", () => {
  it("a string field that is not shaped like an id or a code is written as [redacted]", () => {
    log("test_line", { customer_id: "cus_01ABC", code: `${NAME} <${EMAIL}>`, row_count: 3, status: null });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { event: "test_line", customer_id: "cus_01ABC", code: "[redacted]", row_count: 3, status: null },
    ]);
  });

  it("an error is written as its class, its D1 codes and its frames, never its message", () => {
    logError("test_error", new Error(`D1_TYPE_ERROR: Type 'object' not supported for value '${EMAIL}'`));
    logError("test_error", "a thrown string with Zoë Ruiz in it");
    expectNoneLogged(PERSONAL);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ event: "test_error", error: "Error", error_codes: ["D1_TYPE_ERROR"] });
    expect(first.error_at.length).toBeGreaterThan(0);
    for (const frame of first.error_at) expect(frame).toMatch(/:\d+:\d+$/);
    expect(second).toEqual({ event: "test_error", error: "string" });
  });
});
