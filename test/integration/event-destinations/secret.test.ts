import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createDestination, type TestAccount } from "../../helpers/factories";
import { listEvents } from "../../helpers/reads";
import { receiverPerTest } from "../../helpers/webhooks";

/** The signing secret: returned by create, rotate-secret and retrieve only. */
describe("event destinations: where the signing secret is shown", () => {
  let account: TestAccount;
  let api: ApiClient;
  let id: string;
  let secret: string;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
    const created = await api.post("/v1/event-destinations", {
      name: "Hooks",
      url: "https://hooks.example.com/in",
      enabled_events: ["customer.created"],
    });
    expectStatus(created, 201);
    ({ id, secret } = created.body as { id: string; secret: string });
  });

  it("create returns the secret", () => {
    expect(secret).toMatch(/^whsec_/);
  });

  it("retrieve returns the secret", async () => {
    const res = await api.get(`/v1/event-destinations/${id}`);
    expectStatus(res, 200);
    expect(res.body.secret).toBe(secret);
  });

  it("rotate-secret returns the new secret", async () => {
    const dest = await createDestination(api);
    const res = await api.post(`/v1/event-destinations/${dest.id}/rotate-secret`, { overlap_seconds: 0 });
    expectStatus(res, 200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect((await api.get(`/v1/event-destinations/${dest.id}`)).body.secret).toBe(res.body.secret);
  });

  it("PATCH does not return the secret", async () => {
    const res = await api.patch(`/v1/event-destinations/${id}`, { name: "Renamed" });
    expectStatus(res, 200);
    expect(res.body).not.toHaveProperty("secret");
    expect(res.text).not.toContain(secret);
  });

  it("disable and enable do not return the secret", async () => {
    for (const action of ["disable", "enable"]) {
      const res = await api.post(`/v1/event-destinations/${id}/${action}`);
      expectStatus(res, 200);
      expect(res.body, action).not.toHaveProperty("secret");
      expect(res.text).not.toContain(secret);
    }
  });

  it("list does not return the secret", async () => {
    const res = await api.get("/v1/event-destinations");
    expectStatus(res, 200);
    expect(res.text).not.toContain("whsec_");
  });
});

describe("event destinations: events never carry the secret", () => {
  const t = receiverPerTest();

  it("a ping event's snapshot of the destination has no secret", async () => {
    const dest = await createDestination(t.api);
    const full = (await t.api.get(`/v1/event-destinations/${dest.id}`)).body;
    expectStatus(await t.api.post(`/v1/event-destinations/${dest.id}/ping`), 200);
    const events = await listEvents(t.api, "?type=event_destination.ping");
    expect(events.data).toHaveLength(1);
    const text = JSON.stringify(events.data);
    expect(text).not.toContain("whsec_");
    expect(text).not.toContain(full.secret);
  });
});
