import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createCustomer,
  fullAddress,
  type TestAccount,
  validAddress,
  validCustomer,
} from "../../helpers/factories";
import { expectError } from "../../helpers/security";
import type { CustomerInput } from "../../helpers/types";

/** A customer with every optional field set, so that an update can be seen to keep them. */
const fullCustomer = {
  ...validCustomer,
  email: "billing@acme.example",
  phone: "+34 600 000 000",
  address: fullAddress,
} satisfies CustomerInput;

describe("PATCH /v1/customers/:id", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  const create = (overrides: Partial<CustomerInput> = {}) =>
    createCustomer(api, { ...fullCustomer, ...overrides });
  /** A customer without an address, email or phone. */
  const createWithoutAddress = () => createCustomer(api, { name: "No Address" });

  async function update(id: string, patch: unknown) {
    const res = await api.patch(`/v1/customers/${id}`, patch);
    expectStatus(res, 200);
    // What the update returns is what is stored.
    expect((await api.get(`/v1/customers/${id}`)).body).toEqual(res.body);
    return res.body;
  }

  /** The update is rejected with this error and the customer reads back exactly as before. */
  async function expectRejected(
    customer: { id: string },
    patch: unknown,
    [status, code, param]: [number, string, string?],
  ) {
    const before = (await api.get(`/v1/customers/${customer.id}`)).body;
    expectError(await api.patch(`/v1/customers/${customer.id}`, patch), status, code, param);
    expect((await api.get(`/v1/customers/${customer.id}`)).body).toEqual(before);
  }

  /** The customer without the fields an update is expected to move. */
  const stable = ({ updated_at: _, ...rest }: Record<string, unknown>) => rest;

  describe("happy path", () => {
    it("fields omitted from the body stay unchanged", async () => {
      const before = await create();
      const after = await update(before.id, { name: "Acme Renamed SL" });
      expect(stable(after)).toEqual({ ...stable(before), name: "Acme Renamed SL" });
    });

    it("an empty body returns 200 with the customer unchanged, updated_at included", async () => {
      const before = await create();
      expect(await update(before.id, {})).toEqual(before);
    });

    it("updated_at moves to the time of the update and created_at does not", async () => {
      const before = await create();
      const later = Date.now() + 3_600_000;
      useClock(later);
      const after = await update(before.id, { phone: "+34 911 000 000" });
      expect(after.updated_at).toBe(new Date(later).toISOString());
      expect(after.created_at).toBe(before.created_at);
    });

    it("email and phone set to new values are stored", async () => {
      const before = await create();
      const after = await update(before.id, { email: "new@acme.example", phone: "+1 555 0100" });
      expect(after).toMatchObject({ email: "new@acme.example", phone: "+1 555 0100" });
    });

    it.each(["email", "phone"])("%s null clears it and leaves the rest", async (field) => {
      const before = await create();
      const after = await update(before.id, { [field]: null });
      expect(stable(after)).toEqual({ ...stable(before), [field]: null });
    });

    it("address null clears the whole address", async () => {
      const before = await create();
      const after = await update(before.id, { address: null });
      expect(stable(after)).toEqual({ ...stable(before), address: null });
    });

    it("a partial address merges: changing only the city keeps every other address field", async () => {
      const before = await create();
      const after = await update(before.id, { address: { city: "Sevilla" } });
      expect(after.address).toEqual({ ...fullAddress, city: "Sevilla" });
    });

    it("an empty address object changes nothing in the address", async () => {
      const before = await create();
      const after = await update(before.id, { address: {} });
      expect(after.address).toEqual(before.address);
    });

    it.each(["line_2", "state"])("address.%s null clears only that field", async (field) => {
      const before = await create();
      const after = await update(before.id, { address: { [field]: null } });
      expect(after.address).toEqual({ ...fullAddress, [field]: null });
    });

    it("address.country is uppercased on update", async () => {
      const before = await create();
      const after = await update(before.id, { address: { country: "pt", postal_code: "1100-048" } });
      expect(after.address).toEqual({ ...fullAddress, country: "PT", postal_code: "1100-048" });
    });

    it("a customer without an address accepts a complete address", async () => {
      const before = await createWithoutAddress();
      expect(before.address).toBeNull();
      const after = await update(before.id, { address: { ...validAddress, country: "pt" } });
      expect(after.address).toEqual({ ...validAddress, line_2: null, state: null });
    });

    it("replacing tax_id creates a new Tax ID object with a new id, normalised", async () => {
      const before = await create();
      const after = await update(before.id, {
        tax_id: { country: "es", type: "eu_vat", value: "b-1234.5674" },
      });
      expect(after.tax_id.id).toMatch(/^txi_[0-9A-Z]{26}$/);
      expect(after.tax_id.id).not.toBe(before.tax_id.id);
      expect(after.tax_id).toEqual({
        id: after.tax_id.id,
        object: "tax_id",
        live: false,
        country: "ES",
        type: "eu_vat",
        value: "ESB12345674",
        owner: { type: "customer", id: before.id },
        // A new Tax ID, with a new verification: the sandbox checks the eu_vat after the response.
        verification: {
          status: "pending",
          valid: null,
          completed_at: null,
          verified_name: null,
          verified_address: null,
        },
      });
      expect(stable(after)).toEqual({ ...stable(before), tax_id: after.tax_id });
    });

    it("replacing tax_id with an identical one still gives a new Tax ID id", async () => {
      const before = await create();
      const after = await update(before.id, { tax_id: fullCustomer.tax_id });
      expect(after.tax_id.id).not.toBe(before.tax_id.id);
      expect(after.tax_id.value).toBe(before.tax_id.value);
    });

    it("invoice_prefix is uppercased on update", async () => {
      const before = await create();
      const after = await update(before.id, { invoice_prefix: "new9x" });
      expect(after.invoice_prefix).toBe("NEW9X");
    });

    it("a customer may set its own current invoice_prefix again, in any case", async () => {
      const before = await create({ invoice_prefix: "OWNPFX" });
      expect((await update(before.id, { invoice_prefix: "ownpfx" })).invoice_prefix).toBe("OWNPFX");
    });

    it("a prefix taken in the other environment or another account is free here", async () => {
      await createCustomer(account.liveKey, { ...fullCustomer, invoice_prefix: "LIVEONLY" });
      await createCustomer((await createAccount()).testKey, { ...fullCustomer, invoice_prefix: "STRANGER" });
      const before = await create();
      expect((await update(before.id, { invoice_prefix: "LIVEONLY" })).invoice_prefix).toBe("LIVEONLY");
      expect((await update(before.id, { invoice_prefix: "STRANGER" })).invoice_prefix).toBe("STRANGER");
    });

    it("a released invoice_prefix can be taken by another customer", async () => {
      const first = await create({ invoice_prefix: "MOVING" });
      await update(first.id, { invoice_prefix: "MOVED" });
      const second = await create();
      expect((await update(second.id, { invoice_prefix: "MOVING" })).invoice_prefix).toBe("MOVING");
    });
  });

  describe("errors (each rejected update writes nothing)", () => {
    it("name null is rejected: 400 parameter_invalid param name", async () => {
      await expectRejected(await create(), { name: null }, [400, "parameter_invalid", "name"]);
    });

    it("an empty name is rejected", async () => {
      await expectRejected(await create(), { name: "" }, [400, "parameter_invalid", "name"]);
    });

    it.each(["line_1", "city", "postal_code", "country"])(
      "address.%s null is rejected with that param",
      async (field) => {
        await expectRejected(await create(), { address: { [field]: null } }, [
          400,
          "parameter_invalid",
          `address.${field}`,
        ]);
      },
    );

    it.each([
      ["line_1", { city: "Lisboa", postal_code: "1100-048", country: "PT" }],
      ["city", { line_1: "Rua Augusta 5", postal_code: "1100-048", country: "PT" }],
      ["postal_code", { line_1: "Rua Augusta 5", city: "Lisboa", country: "PT" }],
      ["country", { line_1: "Rua Augusta 5", city: "Lisboa", postal_code: "1100-048" }],
    ])(
      "a partial address on a customer without one must end complete: missing %s",
      async (field, partial) => {
        const customer = await createWithoutAddress();
        await expectRejected(customer, { address: partial }, [400, "parameter_missing", `address.${field}`]);
      },
    );

    it("an empty address object on a customer without one is incomplete", async () => {
      const customer = await createWithoutAddress();
      await expectRejected(customer, { address: {} }, [400, "parameter_missing", "address.line_1"]);
    });

    it.each([
      ["tax_id", null, "parameter_invalid", "tax_id"],
      ["invoice_prefix", null, "parameter_invalid", "invoice_prefix"],
      ["invoice_prefix", "AB-CD", "parameter_invalid", "invoice_prefix"],
      ["email", "not-an-email", "parameter_invalid", "email"],
      ["address", "Calle Mayor 1", "parameter_invalid", "address"],
      ["name", 5, "parameter_invalid", "name"],
    ])("%s set to %j is rejected", async (field, value, code, param) => {
      await expectRejected(await create(), { [field]: value }, [400, code, param]);
    });

    it("a tax_id with a wrong NIF control character is rejected: param tax_id.value", async () => {
      const tax_id = { country: "ES", type: "es_nif", value: "B12345675" };
      await expectRejected(await create(), { tax_id }, [400, "parameter_invalid", "tax_id.value"]);
    });

    it("a tax_id whose country does not suit its type is rejected: param tax_id.country", async () => {
      const tax_id = { country: "FR", type: "es_nif", value: "B12345674" };
      await expectRejected(await create(), { tax_id }, [400, "parameter_invalid", "tax_id.country"]);
    });

    it.each([
      ["value", { country: "ES", type: "es_nif" }],
      ["type", { country: "ES", value: "B12345674" }],
      ["country", { type: "es_nif", value: "B12345674" }],
    ])("a partial tax_id is rejected: parameter_missing tax_id.%s", async (field, tax_id) => {
      await expectRejected(await create(), { tax_id }, [400, "parameter_missing", `tax_id.${field}`]);
    });

    it("an invoice_prefix used by another customer of the account is 409 invoice_prefix_taken", async () => {
      await create({ invoice_prefix: "TAKEN1" });
      const other = await create();
      await expectRejected(other, { invoice_prefix: "taken1" }, [
        409,
        "invoice_prefix_taken",
        "invoice_prefix",
      ]);
    });

    it("a 409 on invoice_prefix rolls back the other fields of the same update", async () => {
      await create({ invoice_prefix: "TAKEN2" });
      const other = await create();
      await expectRejected(other, { name: "Changed", address: null, invoice_prefix: "TAKEN2" }, [
        409,
        "invoice_prefix_taken",
        "invoice_prefix",
      ]);
    });

    it("a valid field next to an invalid one is not applied either", async () => {
      await expectRejected(await create(), { name: "Changed", email: null, address: { city: null } }, [
        400,
        "parameter_invalid",
        "address.city",
      ]);
    });

    it.each([
      [{ nickname: "Acme" }, "nickname"],
      [{ address: { foo: "bar" } }, "address.foo"],
      [{ tax_id: { ...fullCustomer.tax_id, verified: true } }, "tax_id.verified"],
      [{ id: "cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR" }, "id"],
      [{ live: true }, "live"],
      [{ created_at: "2020-01-01T00:00:00.000Z" }, "created_at"],
    ])("an unknown field %j is 400 parameter_unknown naming it", async (patch, param) => {
      await expectRejected(await create(), patch, [400, "parameter_unknown", param]);
    });

    it("updating an unknown customer is 404 resource_missing", async () => {
      const res = await api.patch("/v1/customers/cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR", { name: "X" });
      expectError(res, 404, "resource_missing");
    });
  });
});
