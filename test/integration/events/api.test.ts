import { beforeAll, describe, expect, it } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  createCustomer,
  createInstruction,
  type TestAccount,
  validCustomer,
} from "../../helpers/factories";
import { listEvents } from "../../helpers/reads";
import { expectError } from "../../helpers/security";
import type { Customer, PaymentInstruction } from "../../helpers/types";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const eventCount = (accountId: string) => countRows("events", accountId);

describe("events recorded by customer writes", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  it("creating a customer records customer.created with the full event shape and data.object equal to the 201 body", async () => {
    const customer = await createCustomer(api);
    const list = await listEvents(api, "?limit=1");
    const event = list.data[0]!;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      object: "event",
      type: "customer.created",
      live: false,
      created_at: expect.stringMatching(ISO),
      data: { object: customer },
      related_object: { id: customer.id, type: "customer", url: `/v1/customers/${customer.id}` },
    });
    const byId = await api.get(`/v1/events/${event.id}`);
    expectStatus(byId, 200);
    expect(byId.body).toEqual(event);
  });

  it("updating a customer records customer.updated with the object after the update, and the earlier snapshot does not change", async () => {
    const customer = await createCustomer(api);
    const created = (await listEvents(api, "?limit=1")).data[0]!;
    const updated = await api.patch(`/v1/customers/${customer.id}`, {
      name: "Renamed SL",
      email: "billing@renamed.example",
    });
    expectStatus(updated, 200);
    await afterResponses();
    const [event] = (await listEvents(api, "?limit=1")).data;
    expect(event).toMatchObject({
      type: "customer.updated",
      data: { object: updated.body },
      related_object: { id: customer.id, type: "customer", url: `/v1/customers/${customer.id}` },
    });
    expect(event!.data.object).toEqual(updated.body);
    expect((event!.data.object as Customer).name).toBe("Renamed SL");
    // The customer.created event still shows the customer as it was created.
    const again = await api.get(`/v1/events/${created.id}`);
    expect(again.body.data.object).toEqual(customer);
    expect((again.body.data.object as Customer).name).toBe("Acme Servicios SL");
  });

  it("deleting a customer records customer.deleted with the object as it was just before the delete", async () => {
    const customer = await createCustomer(api);
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, { phone: "+34 600 000 000" }), 200);
    await afterResponses();
    const before = await api.get(`/v1/customers/${customer.id}`);
    expectStatus(before, 200);
    expectStatus(await api.del(`/v1/customers/${customer.id}`), 204);
    await afterResponses();
    const [event] = (await listEvents(api, "?limit=1")).data;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type: "customer.deleted",
      live: false,
      created_at: expect.stringMatching(ISO),
      data: { object: before.body },
      related_object: { id: customer.id, type: "customer", url: `/v1/customers/${customer.id}` },
    });
  });

  it("a customer's create, update and delete record exactly three events, one of each type", async () => {
    const own = await createAccount();
    const ownApi = client(own.testKey);
    const customer = await createCustomer(ownApi);
    expectStatus(await ownApi.patch(`/v1/customers/${customer.id}`, { name: "B" }), 200);
    expectStatus(await ownApi.del(`/v1/customers/${customer.id}`), 204);
    await afterResponses();
    const list = await listEvents(ownApi);
    expect(list.data.map((e) => e.type)).toEqual([
      "customer.deleted",
      "customer.updated",
      "customer.created",
    ]);
    expect(await eventCount(own.id)).toBe(3);
  });

  it("a live key's write records a live event", async () => {
    const liveApi = client(account.liveKey);
    const customer = await createCustomer(liveApi);
    const [event] = (await listEvents(liveApi, "?limit=1")).data;
    expect(event).toMatchObject({ type: "customer.created", live: true, data: { object: customer } });
    expect((event!.data.object as Customer).live).toBe(true);
  });
});

describe("events recorded by payment instruction writes", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  it("create, update and delete record payment_instruction.created/updated/deleted with the object at that moment", async () => {
    const instruction = await createInstruction(api);
    const updated = await api.patch(`/v1/payment-instructions/${instruction.id}`, {
      label: "Renamed",
      bank_transfer: { bic: null },
    });
    expectStatus(updated, 200);
    await afterResponses();
    const beforeDelete = await api.get(`/v1/payment-instructions/${instruction.id}`);
    expectStatus(beforeDelete, 200);
    expectStatus(await api.del(`/v1/payment-instructions/${instruction.id}`), 204);
    await afterResponses();

    const list = await listEvents(api);
    const related = {
      id: instruction.id,
      type: "payment_instruction",
      url: `/v1/payment-instructions/${instruction.id}`,
    };
    const shape = (type: string, object: unknown) => ({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type,
      live: false,
      created_at: expect.stringMatching(ISO),
      data: { object },
      related_object: related,
    });
    expect(list.data).toEqual([
      shape("payment_instruction.deleted", beforeDelete.body),
      shape("payment_instruction.updated", updated.body),
      shape("payment_instruction.created", instruction),
    ]);
    const objects = list.data.map((event) => event.data.object as PaymentInstruction);
    expect(objects[1]!.bank_transfer.bic).toBeNull();
    expect(objects[2]!.bank_transfer.bic).toBe("CAIXESBBXXX");
  });
});

describe("a rejected write records no event", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  /** Runs `write`, expects the error, and that no event was recorded for the account. */
  async function expectNoEvent(write: () => Promise<void>) {
    await afterResponses();
    const before = await eventCount(account.id);
    expect(before).toBeGreaterThan(0); // the setup's own writes did record events
    await write();
    await afterResponses();
    expect(await eventCount(account.id)).toBe(before);
  }

  it("a 400 on a customer update (name null)", async () => {
    const customer = await createCustomer(api);
    await expectNoEvent(async () => {
      expectError(
        await api.patch(`/v1/customers/${customer.id}`, { name: null }),
        400,
        "parameter_invalid",
        "name",
      );
    });
  });

  it("a 400 on a customer create (incomplete address)", async () => {
    await createCustomer(api);
    await expectNoEvent(async () => {
      const res = await api.post("/v1/customers", { ...validCustomer, address: { line_1: "Calle Mayor 1" } });
      expectError(res, 400, "parameter_missing", "address.city");
    });
  });

  it("a 409 on a customer create with a taken invoice_prefix", async () => {
    await createCustomer(api, { invoice_prefix: "TAKEN" });
    await expectNoEvent(async () => {
      const res = await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "TAKEN" });
      expect(res.status).toBe(409);
    });
  });

  it("a 409 on a customer update to a taken invoice_prefix", async () => {
    await createCustomer(api, { invoice_prefix: "HELD" });
    const other = await createCustomer(api);
    await expectNoEvent(async () => {
      const res = await api.patch(`/v1/customers/${other.id}`, { invoice_prefix: "HELD" });
      expect(res.status).toBe(409);
    });
  });

  it("a 404 on deleting an unknown customer", async () => {
    await createCustomer(api);
    await expectNoEvent(async () => {
      expectError(await api.del("/v1/customers/cus_00000000000000000000000000"), 404, "resource_missing");
    });
  });

  it("a 400 on a payment instruction update with a bad IBAN", async () => {
    const instruction = await createInstruction(api);
    await expectNoEvent(async () => {
      const res = await api.patch(`/v1/payment-instructions/${instruction.id}`, {
        bank_transfer: { iban: "ES0000000000000000000000" },
      });
      expect(res.status).toBe(400);
    });
  });

  it("a 409 on deleting a payment instruction that is in the account defaults", async () => {
    const instruction = await createInstruction(api);
    expectStatus(await api.patch("/v1/account", { default_payment_instructions: [instruction.id] }), 200);
    await expectNoEvent(async () => {
      const res = await api.del(`/v1/payment-instructions/${instruction.id}`);
      expect(res.status).toBe(409);
    });
    expectStatus(await api.get(`/v1/payment-instructions/${instruction.id}`), 200);
  });
});
