/**
 * D1 read replication (issue 15): every request runs in a D1 session. Reads may use a replica,
 * or start from the bookmark the client sends back; other methods start on the primary; every
 * response carries the session's bookmark; queue consumers and the cron read the primary.
 * Locally there are no replicas: these tests check which session each path asks for, and
 * that the API answers the same.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../../src/db/client";
import { BOOKMARK_HEADER } from "../../../src/db/session";
import { client, request } from "../../helpers/api";
import { createAccount } from "../../helpers/factories";

afterEach(() => {
  vi.restoreAllMocks();
});

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

function sessions() {
  const spy = vi.spyOn(env.DB, "withSession");
  return () => spy.mock.calls.map(([constraint]) => constraint);
}

describe("every request runs in a D1 session and answers with its bookmark", () => {
  it("a write starts on the primary, and its response carries a bookmark", async () => {
    const api = client((await createAccount()).testKey);
    const asked = sessions();
    const res = await api.post("/v1/customers", {
      name: "Cliente SA",
      tax_id: { country: "US", type: "local", value: "US123" },
    });
    expect(res.status).toBe(201);
    expect(asked()).toEqual(["first-primary"]);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(BOOKMARK);
  });

  it("a read may use any replica; sent back, a bookmark makes it read its own writes", async () => {
    const { testKey: key } = await createAccount();
    const created = await client(key).post("/v1/customers", {
      name: "Cliente SA",
      tax_id: { country: "US", type: "local", value: "US123" },
    });
    const bookmark = created.headers.get(BOOKMARK_HEADER) as string;
    const id = (created.body as { id: string }).id;
    const asked = sessions();
    expect((await client(key).get("/v1/customers")).status).toBe(200);
    const res = await request("GET", `/v1/customers/${id}`, undefined, {
      key,
      headers: { [BOOKMARK_HEADER]: bookmark },
    });
    expect(res.status).toBe(200);
    expect(asked()).toEqual(["first-unconstrained", bookmark]);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(BOOKMARK);
  });

  it("an error from a request that reached the database carries its bookmark; one refused before it has none", async () => {
    const api = client((await createAccount()).testKey);
    const missing = await api.get("/v1/customers/cus_00000000000000000000000000");
    expect(missing.status).toBe(404);
    expect(missing.headers.get(BOOKMARK_HEADER)).toMatch(BOOKMARK);
    // Refused by validation: its session ran no query, so there is nothing to read after.
    const invalid = await api.post("/v1/customers", {});
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get(BOOKMARK_HEADER)).toBeNull();
    const unauthenticated = await request("GET", "/v1/customers");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get(BOOKMARK_HEADER)).toBeNull();
  });

  it("a malformed bookmark is read on the primary, never an error", async () => {
    const account = await createAccount();
    const asked = sessions();
    const res = await request("GET", "/v1/customers", undefined, {
      key: account.testKey,
      headers: { [BOOKMARK_HEADER]: "not-a-bookmark" },
    });
    expect(res.status).toBe(200);
    expect(asked()).toEqual(["first-primary"]);
  });
});

describe("queue consumers and the cron read the primary", () => {
  it("a Database made from the bare binding runs in a first-primary session", async () => {
    const asked = sessions();
    const db = createDb(env.DB);
    await db.run("SELECT 1" as never);
    expect(asked()).toEqual(["first-primary"]);
  });
});
