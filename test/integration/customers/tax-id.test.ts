import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createAccount, createCustomer, type TestAccount } from "../../helpers/factories";
import { expectError } from "../../helpers/security";

type TaxIdInput = { country: string; type: string; value: string };

describe("Tax ID rules through the API", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  const customerCount = () => countRows("customers", account.id);

  async function created(tax_id: TaxIdInput) {
    const res = await api.post("/v1/customers", { name: "Tax ID holder", tax_id });
    expectStatus(res, 201);
    expect((await api.get(`/v1/customers/${res.body.id}`)).body.tax_id).toEqual(res.body.tax_id);
    return res.body.tax_id;
  }

  async function rejected(tax_id: TaxIdInput, param: string) {
    const before = await customerCount();
    const res = await api.post("/v1/customers", { name: "Tax ID holder", tax_id });
    expectError(res, 400, "parameter_invalid", param);
    expect(await customerCount()).toBe(before);
  }

  describe("accepted and normalised", () => {
    it.each([
      ["es_nif, a DNI with dots and a hyphen", "ES", "es_nif", "12.345.678-z", "12345678Z"],
      ["es_nif, an entity NIF", "es", "es_nif", "b 1234 5674", "B12345674"],
      ["es_nif, a NIE", "ES", "es_nif", "x-1234567-l", "X1234567L"],
      ["eu_vat ES without its prefix", "ES", "eu_vat", "b-1234.5674", "ESB12345674"],
      ["eu_vat ES with its prefix", "ES", "eu_vat", "esb12345674", "ESB12345674"],
      ["eu_vat DE with spaces", "de", "eu_vat", "DE 136 695 976", "DE136695976"],
      ["eu_vat DE without its prefix", "DE", "eu_vat", "136695976", "DE136695976"],
      ["eu_vat FR", "FR", "eu_vat", "FR 40 303 265 045", "FR40303265045"],
      ["eu_vat GR with the EL prefix", "GR", "eu_vat", "EL094259216", "EL094259216"],
      ["eu_vat GR without a prefix gets EL", "GR", "eu_vat", "094259216", "EL094259216"],
      ["eu_vat GR, lowercase with dots", "gr", "eu_vat", "el 094.259.216", "EL094259216"],
      ["eu_vat GR written with GR is stored with EL", "GR", "eu_vat", "GR094259216", "EL094259216"],
      [
        "eu_vat BE, an old 9-digit number gets its leading 0",
        "BE",
        "eu_vat",
        "BE 428.759.497",
        "BE0428759497",
      ],
      ["local in the US", "US", "local", "12-3456789", "123456789"],
      ["local in Japan, lowercase", "jp", "local", "t1234.5678.9012.3", "T1234567890123"],
      ["local in Switzerland", "CH", "local", "che-123.456.789", "CHE123456789"],
      ["local in Spain", "ES", "local", "anything 1", "ANYTHING1"],
    ])("%s", async (_, country, type, value, stored) => {
      const taxId = await created({ country, type, value });
      expect(taxId).toMatchObject({ country: country.toUpperCase(), type, value: stored });
    });
  });

  describe("rejected", () => {
    it.each(["FR", "PT", "US", "GR"])(
      "es_nif requires country ES: %s is 400 param tax_id.country",
      async (c) => {
        await rejected({ country: c, type: "es_nif", value: "12345678Z" }, "tax_id.country");
      },
    );

    it.each(["US", "GB", "CH", "NO"])("eu_vat requires an EU member state: %s is 400", async (country) => {
      await rejected({ country, type: "eu_vat", value: "123456789" }, "tax_id.country");
    });

    it("EL is a VAT prefix, not a country: 400 param tax_id.country", async () => {
      await rejected({ country: "EL", type: "eu_vat", value: "EL123456789" }, "tax_id.country");
    });

    it.each([
      ["a DNI with the wrong letter", "es_nif", "ES", "12345678A"],
      ["an entity NIF with the wrong digit", "es_nif", "ES", "B12345675"],
      ["a NIE with the wrong letter", "es_nif", "ES", "X1234567A"],
      ["a Spanish VAT number with the wrong control", "eu_vat", "ES", "ESB12345675"],
      ["a NIF of the wrong shape", "es_nif", "ES", "1234"],
      ["a German VAT number of the wrong shape", "eu_vat", "DE", "DE12345"],
      ["a VAT number with another member state's prefix", "eu_vat", "DE", "FR40303265045"],
      ["a Greek VAT number of the wrong shape", "eu_vat", "GR", "EL12345"],
      ["a German VAT number that fails its check digits", "eu_vat", "DE", "DE136695978"],
      ["a local value with a slash", "local", "US", "12/34"],
      ["a local value of separators only", "local", "US", " .-. "],
    ])("%s is 400 param tax_id.value", async (_, type, country, value) => {
      await rejected({ country, type, value }, "tax_id.value");
    });

    it("the Tax ID rules hold on update, which writes nothing when it fails", async () => {
      const customer = await createCustomer(api, {
        name: "Holder",
        tax_id: { country: "ES", type: "es_nif", value: "12345678Z" },
      });
      const path = `/v1/customers/${customer.id}` as const;
      const bad: [TaxIdInput, string][] = [
        [{ country: "US", type: "eu_vat", value: "123456789" }, "tax_id.country"],
        [{ country: "ES", type: "es_nif", value: "12345678A" }, "tax_id.value"],
        [{ country: "GR", type: "eu_vat", value: "EL12" }, "tax_id.value"],
      ];
      for (const [tax_id, param] of bad) {
        expectError(await api.patch(path, { tax_id }), 400, "parameter_invalid", param);
      }
      expect((await api.get(path)).body).toEqual(customer);
      const updated = await api.patch(path, {
        tax_id: { country: "gr", type: "eu_vat", value: "094259216" },
      });
      expectStatus(updated, 200);
      expect(updated.body.tax_id).toMatchObject({ country: "GR", type: "eu_vat", value: "EL094259216" });
    });
  });
});
