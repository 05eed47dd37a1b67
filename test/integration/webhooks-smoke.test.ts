import { afterEach, describe, expect, it, vi } from "vitest";
import { createAccount } from "../helpers/accounts";
import { client, expectStatus } from "../helpers/api";

async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("webhook smoke", () => {
  afterEach(() => vi.restoreAllMocks());
  it("a customer.created event is delivered signed to a subscribed destination", async () => {
    const api = client((await createAccount()).testKey);
    const dest = await api.post("/v1/event-destinations", {
      name: "hooks",
      url: "https://hooks.example.com/in",
      enabled_events: ["customer.created"],
    });
    expectStatus(dest, 201);
    const calls: { headers: Headers; body: string }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
      calls.push({ headers: new Headers(init?.headers), body: init?.body as string });
      return new Response("ok");
    });
    const cus = await api.post("/v1/customers", {
      name: "X",
      tax_id: { country: "ES", type: "es_nif", value: "12345678Z" },
    });
    expectStatus(cus, 201);
    await vi.waitFor(() => expect(calls.length).toBe(1), { timeout: 5000 });
    const req = calls[0]!;
    const body = req.body;
    const parsed = JSON.parse(body);
    expect(parsed.type).toBe("customer.created");
    expect(parsed.related_object.id).toBe(cus.body.id);
    expect(parsed.data).toBeUndefined();
    const header = req.headers.get("service-signature") as string;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) as RegExpExecArray;
    expect(v1).toBe(await hmacHex(dest.body.secret, `${t}.${body}`));
    const evt = await api.get(`/v1/events/${parsed.id}`);
    expectStatus(evt, 200);
    expect(evt.body.data.object).toEqual(cus.body);
  });
});
