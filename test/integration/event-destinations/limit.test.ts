/**
 * At most 16 event destinations per account and environment, as Stripe caps webhook
 * endpoints: enabled and disabled ones count alike, and the database holds the cap when
 * creates race.
 */
import { describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createAccount, createDestination, validDestination } from "../../helpers/factories";
import { dbSnapshot, expectError } from "../../helpers/security";

const LIMIT = 16;

async function fill(key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createDestination(key)).id);
  return ids;
}

describe("at most 16 event destinations per account and environment", () => {
  it("the 16th destination is created; the 17th is 400 destination_limit_reached and writes nothing", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    await fill(account.testKey, LIMIT - 1);
    expectStatus(await api.post("/v1/event-destinations", validDestination), 201);
    expect(await countRows("event_destinations", account.id)).toBe(LIMIT);

    const before = await dbSnapshot();
    const res = await api.post("/v1/event-destinations", validDestination);
    expectError(res, 400, "destination_limit_reached");
    expect(res.body.error.message).toMatch(/16/);
    expect(await dbSnapshot()).toBe(before);
  });

  it("disabled destinations count toward the 16, and enabling one of them is not a create", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const [first] = await fill(account.testKey, LIMIT);
    expectStatus(await api.post(`/v1/event-destinations/${first}/disable`), 200);
    expectError(await api.post("/v1/event-destinations", validDestination), 400, "destination_limit_reached");
    expectStatus(await api.post(`/v1/event-destinations/${first}/enable`), 200);
  });

  it("the limit is per environment and per account: a full test environment leaves live and other accounts free", async () => {
    const account = await createAccount();
    await fill(account.testKey, LIMIT);
    expectStatus(await client(account.liveKey).post("/v1/event-destinations", validDestination), 201);
    const other = await createAccount();
    expectStatus(await client(other.testKey).post("/v1/event-destinations", validDestination), 201);
  });

  it("deleting a destination frees its place", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const [first] = await fill(account.testKey, LIMIT);
    expectStatus(await api.del(`/v1/event-destinations/${first}`), 204);
    expectStatus(await api.post("/v1/event-destinations", validDestination), 201);
    expectError(await api.post("/v1/event-destinations", validDestination), 400, "destination_limit_reached");
  });

  it("24 concurrent creates on an empty environment make exactly 16 destinations", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const responses = await Promise.all(
      Array.from({ length: 24 }, () => api.post("/v1/event-destinations", validDestination)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expectError(res, 400, "destination_limit_reached");
    }
    expect(await countRows("event_destinations", account.id)).toBe(LIMIT);
  });
});
