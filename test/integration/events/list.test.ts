import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer, createInstruction, type TestAccount } from "../../helpers/factories";
import { listEvents } from "../../helpers/reads";
import { describeAuthMatrix, expectError } from "../../helpers/security";

const ids = (list: { data: { id: string }[] }) => list.data.map((e) => e.id);

describe("GET /v1/events", () => {
  let account: TestAccount;
  let api: ApiClient;
  /** Event ids, oldest first. */
  let eventIds: string[];
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
    const a = await createCustomer(api);
    await createInstruction(api);
    expectStatus(await api.patch(`/v1/customers/${a.id}`, { name: "Second name" }), 200);
    await createCustomer(api);
    await createInstruction(api);
    await afterResponses();
    const rows = await env.DB.prepare("SELECT id FROM events WHERE account_id = ? ORDER BY id")
      .bind(account.id)
      .all<{ id: string }>();
    eventIds = rows.results.map((r) => r.id);
    expect(eventIds).toHaveLength(5);
  });

  it("lists the caller's events newest first", async () => {
    const list = await listEvents(api);
    expect(list.object).toBe("list");
    expect(list.has_more).toBe(false);
    expect(ids(list)).toEqual([...eventIds].reverse());
    expect(list.data.map((e) => e.type)).toEqual([
      "payment_instruction.created",
      "customer.created",
      "customer.updated",
      "payment_instruction.created",
      "customer.created",
    ]);
  });

  it("pages forward with starting_after and back with ending_before", async () => {
    const newestFirst = [...eventIds].reverse();
    const first = await listEvents(api, "?limit=2");
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await listEvents(api, `?limit=2&starting_after=${first.data[1]!.id}`);
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.has_more).toBe(true);
    const third = await listEvents(api, `?limit=2&starting_after=${second.data[1]!.id}`);
    expect(ids(third)).toEqual(newestFirst.slice(4));
    expect(third.has_more).toBe(false);
    const back = await listEvents(api, `?limit=2&ending_before=${second.data[0]!.id}`);
    expect(ids(back)).toEqual(newestFirst.slice(0, 2));
  });

  it("filters by type, also across pages", async () => {
    const created = await listEvents(api, "?type=customer.created");
    expect(ids(created)).toEqual([eventIds[3], eventIds[0]]);
    const page = await listEvents(api, "?type=payment_instruction.created&limit=1");
    expect(ids(page)).toEqual([eventIds[4]]);
    expect(page.has_more).toBe(true);
    const next = await listEvents(
      api,
      `?type=payment_instruction.created&limit=1&starting_after=${eventIds[4]}`,
    );
    expect(ids(next)).toEqual([eventIds[1]]);
    expect(next.has_more).toBe(false);
    expect((await listEvents(api, "?type=invoice.issued")).data).toEqual([]);
  });

  it("an unknown type is 400 with param type", async () => {
    expectError(await api.get("/v1/events?type=customer.exploded"), 400, "parameter_invalid", "type");
    expectError(await api.get("/v1/events?type=*"), 400, "parameter_invalid", "type");
  });

  it("limit outside 1..100 and an unknown parameter are 400", async () => {
    expectError(await api.get("/v1/events?limit=0"), 400, "parameter_invalid", "limit");
    expectError(await api.get("/v1/events?limit=101"), 400, "parameter_invalid", "limit");
    expectError(await api.get("/v1/events?object=customer"), 400, "parameter_unknown", "object");
  });

  it("another account's events are absent from its list, 404 by id and rejected as a cursor", async () => {
    const other = client((await createAccount()).testKey);
    expect((await listEvents(other)).data).toEqual([]);
    expectError(await other.get(`/v1/events/${eventIds[0]}`), 404, "resource_missing");
    expect((await other.get(`/v1/events?starting_after=${eventIds[0]}`)).status).toBe(400);
  });

  it("the other environment's events are absent from the list and 404 by id", async () => {
    const liveApi = client(account.liveKey);
    const liveCustomer = await createCustomer(liveApi);
    const liveList = await listEvents(liveApi);
    expect(liveList.data).toHaveLength(1);
    expect(liveList.data[0]!.related_object.id).toBe(liveCustomer.id);
    for (const id of eventIds) expectError(await liveApi.get(`/v1/events/${id}`), 404, "resource_missing");
    expectError(await api.get(`/v1/events/${liveList.data[0]!.id}`), 404, "resource_missing");
    expect(ids(await listEvents(api))).not.toContain(liveList.data[0]!.id);
  });

  it("an unknown event id is 404", async () => {
    expectError(await api.get("/v1/events/evt_00000000000000000000000000"), 404, "resource_missing");
  });
});

/** Creates a customer with `key` and returns the id of its customer.created event. */
async function createEvent(key: string): Promise<string> {
  const api = client(key);
  const customer = await createCustomer(api);
  const list = await listEvents(api, "?limit=1");
  expect(list.data[0]!.related_object.id).toBe(customer.id);
  return list.data[0]!.id;
}

describeAuthMatrix({ method: "GET", path: () => "/v1/events" });
describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/events/${id}`,
  create: createEvent,
  read: async (key, id) => (await client(key).get(`/v1/events/${id}`)).body,
});
