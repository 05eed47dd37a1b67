import { beforeAll, describe, expect, it } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import {
  createAccount,
  createDestination,
  type TestAccount,
  validDestination,
} from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
import { describeAuthMatrix, expectError } from "../../helpers/security";

/** Who can reach a destination: its account, with a key of its environment, and nobody else. */

describe("event destinations: test and live do not mix", () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount();
  });

  it("a destination created with a test key is live false, and the live key cannot see it", async () => {
    const liveApi = client(account.liveKey);
    const created = await createDestination(account.testKey);
    expect(created.live).toBe(false);
    const id = created.id;

    expectError(await liveApi.get(`/v1/event-destinations/${id}`), 404, "resource_missing");
    expectError(await liveApi.patch(`/v1/event-destinations/${id}`, { name: "x" }), 404, "resource_missing");
    expectError(await liveApi.post(`/v1/event-destinations/${id}/disable`), 404, "resource_missing");
    expectError(await liveApi.del(`/v1/event-destinations/${id}`), 404, "resource_missing");
    const liveList = await liveApi.get("/v1/event-destinations");
    expectStatus(liveList, 200);
    expect(liveList.body.data.map((d) => d.id)).not.toContain(id);
    expect(await readDestination(account.testKey, id)).toEqual(created);
  });

  it("a destination created with a live key is live true and absent from the test list", async () => {
    const created = await createDestination(account.liveKey);
    expect(created.live).toBe(true);
    const testList = await client(account.testKey).get("/v1/event-destinations");
    expect(testList.body.data.map((d) => d.id)).not.toContain(created.id);
    const liveList = await client(account.liveKey).get("/v1/event-destinations");
    expect(liveList.body.data.map((d) => d.id)).toEqual([created.id]);
  });

  it("another account's destinations are absent from the list and a cursor of theirs is rejected", async () => {
    const other = await createAccount();
    const { id: theirs } = await createDestination(other.testKey);
    const list = await client(account.testKey).get("/v1/event-destinations");
    expect(list.body.data.map((d) => d.id)).not.toContain(theirs);
    const res = await client(account.testKey).get(`/v1/event-destinations?starting_after=${theirs}`);
    expect(res.status).toBe(400);
  });
});

const create = async (key: string) => (await createDestination(key)).id;
describeAuthMatrix({ method: "POST", path: () => "/v1/event-destinations", body: validDestination });
describeAuthMatrix({ method: "GET", path: () => "/v1/event-destinations" });
describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/event-destinations/${id}`,
  create,
  read: readDestination,
});
describeAuthMatrix({
  method: "PATCH",
  path: (id) => `/v1/event-destinations/${id}`,
  body: { name: "Hijacked", url: "https://evil.example.com/" },
  create,
  read: readDestination,
});
describeAuthMatrix({
  method: "DELETE",
  path: (id) => `/v1/event-destinations/${id}`,
  create,
  read: readDestination,
});
describeAuthMatrix({
  method: "POST",
  path: (id) => `/v1/event-destinations/${id}/disable`,
  create,
  read: readDestination,
});
describeAuthMatrix({
  method: "POST",
  path: (id) => `/v1/event-destinations/${id}/enable`,
  create: async (key) => {
    const { id } = await createDestination(key);
    expectStatus(await client(key).post(`/v1/event-destinations/${id}/disable`), 200);
    return id;
  },
  read: readDestination,
});
