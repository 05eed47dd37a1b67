/**
 * Input normalisation: every value the API uppercases (countries, invoice prefixes, Tax ID
 * values, IBAN, BIC, currencies, series) must be ASCII before it is uppercased. JavaScript
 * maps some other letters to ASCII ones ("ſ" → "S", "ß" → "SS", "ı" → "I", "ﬁ" → "FI"), so
 * without that check a look-alike would be stored as a valid code. Each one is a 400 with
 * the field's `param`, and the request writes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, client, expectStatus } from "../../helpers/api";
import {
  createAccount,
  createCustomer,
  createInstruction,
  fullAddress,
  validCustomer,
  validInstruction,
} from "../../helpers/factories";
import { dbSnapshot, expectError } from "../../helpers/security";

type Case = [input: string, asciiItBecomes: string];

/** Each input uppercases to a valid code (the second value) under plain `toUpperCase`. */
const COUNTRIES: Case[] = [
  ["ſe", "SE"],
  ["ß", "SS"],
  ["ıt", "IT"],
  ["ﬁ", "FI"],
  ["ｅｓ", "ＥＳ (full-width)"],
];
const PREFIXES: Case[] = [
  ["ſab", "SAB"],
  ["ßab", "SSAB"],
  ["ıab", "IAB"],
  ["ﬁab", "FIAB"],
  ["ＡＢＣ", "full-width ABC"],
];
const TAX_ID_VALUES: Case[] = [
  ["ſ123", "S123"],
  ["ß123", "SS123"],
  ["ı123", "I123"],
  ["ﬁ123", "FI123"],
  ["Ａ123", "full-width A123"],
];
const IBANS: Case[] = [
  ["Eſ9121000418450200051332", "ES91…"],
  ["ıT60X0542811101000000123456", "IT60…"],
  ["ﬁ2112345600000785", "FI21…"],
  ["ＥＳ9121000418450200051332", "full-width ES91…"],
];
const BICS: Case[] = [
  ["CAIXEſBBXXX", "CAIXESBBXXX"],
  ["ßMBGB2L", "SSMBGB2L"],
  ["ıNGBNL2A", "INGBNL2A"],
  ["NDEAﬁHH", "NDEAFIHH"],
  ["ＣＡＩＸＥＳＢＢ", "full-width CAIXESBB"],
];
const CURRENCIES: Case[] = [
  ["uſd", "USD"],
  ["ıdr", "IDR"],
  ["ｅｕｒ", "full-width EUR"],
];
const SERIES: Case[] = [
  ["ſ1", "S1"],
  ["ßerie", "SSERIE"],
  ["ıNV", "INV"],
  ["ﬁn", "FIN"],
  ["ＩＮＶ", "full-width INV"],
];

let api: ApiClient;
let global: ApiClient;
beforeAll(async () => {
  api = client((await createAccount()).testKey);
  global = client((await createAccount({ taxRegime: "global" })).testKey);
});

/** `send` is a 400 parameter_invalid on `param`, and the database is the same afterwards. */
async function expectRejected(send: () => Promise<ApiResponse>, param: string) {
  const before = await dbSnapshot();
  expectError(await send(), 400, "parameter_invalid", param);
  expect(await dbSnapshot()).toBe(before);
}

describe("countries are ASCII before they are uppercased", () => {
  it.each(COUNTRIES)("address.country %j (uppercased: %s) is 400 on create", async (country) => {
    await expectRejected(
      () => api.post("/v1/customers", { ...validCustomer, address: { ...fullAddress, country } }),
      "address.country",
    );
  });

  it.each(COUNTRIES)("tax_id.country %j (uppercased: %s) is 400 on create", async (country) => {
    await expectRejected(
      () => api.post("/v1/customers", { ...validCustomer, tax_id: { country, type: "local", value: "123" } }),
      "tax_id.country",
    );
  });

  it.each(COUNTRIES)("address.country %j (uppercased: %s) is 400 on update", async (country) => {
    const customer = await createCustomer(api, { address: fullAddress });
    await expectRejected(
      () => api.patch(`/v1/customers/${customer.id}`, { address: { country } }),
      "address.country",
    );
  });

  it.each(COUNTRIES)("the list filter country %j (uppercased: %s) is 400", async (country) => {
    await expectRejected(() => api.get(`/v1/customers?country=${encodeURIComponent(country)}`), "country");
  });

  it.each(COUNTRIES)("the account's address.country %j (uppercased: %s) is 400", async (country) => {
    await expectRejected(
      () => api.patch("/v1/account", { address: { ...fullAddress, country } }),
      "address.country",
    );
  });

  it.each(COUNTRIES)("the account's tax_id.country %j (uppercased: %s) is 400", async (country) => {
    await expectRejected(
      () => api.patch("/v1/account", { tax_id: { country, type: "local", value: "123" } }),
      "tax_id.country",
    );
  });

  it("ASCII country codes are still uppercased", async () => {
    const res = await api.post("/v1/customers", {
      ...validCustomer,
      tax_id: { country: "se", type: "local", value: "123" },
      address: { ...fullAddress, country: "fi" },
    });
    expectStatus(res, 201);
    expect(res.body.tax_id.country).toBe("SE");
    expect(res.body.address?.country).toBe("FI");
  });
});

describe("invoice prefixes are ASCII before they are uppercased", () => {
  it.each(PREFIXES)("invoice_prefix %j (uppercased: %s) is 400 on create", async (prefix) => {
    await expectRejected(
      () => api.post("/v1/customers", { ...validCustomer, invoice_prefix: prefix }),
      "invoice_prefix",
    );
  });

  it.each(PREFIXES)("invoice_prefix %j (uppercased: %s) is 400 on update", async (prefix) => {
    const customer = await createCustomer(api);
    await expectRejected(
      () => api.patch(`/v1/customers/${customer.id}`, { invoice_prefix: prefix }),
      "invoice_prefix",
    );
  });

  it("an ASCII prefix is still uppercased", async () => {
    const res = await api.post("/v1/customers", { ...validCustomer, invoice_prefix: "sab1" });
    expectStatus(res, 201);
    expect(res.body.invoice_prefix).toBe("SAB1");
  });
});

describe("Tax ID values are ASCII before they are uppercased", () => {
  it.each(TAX_ID_VALUES)("tax_id.value %j (uppercased: %s) is 400", async (value) => {
    await expectRejected(
      () => api.post("/v1/customers", { ...validCustomer, tax_id: { country: "PT", type: "local", value } }),
      "tax_id.value",
    );
  });

  it("an eu_vat value with a look-alike prefix is 400", async () => {
    await expectRejected(
      () =>
        api.post("/v1/customers", {
          ...validCustomer,
          tax_id: { country: "ES", type: "eu_vat", value: "Eſb12345674" },
        }),
      "tax_id.value",
    );
  });
});

describe("IBAN and BIC are ASCII before they are uppercased", () => {
  it.each(IBANS)("bank_transfer.iban %j (uppercased: %s) is 400 on create", async (iban) => {
    await expectRejected(
      () =>
        api.post("/v1/payment-instructions", {
          ...validInstruction,
          bank_transfer: { ...validInstruction.bank_transfer, iban },
        }),
      "bank_transfer.iban",
    );
  });

  it.each(BICS)("bank_transfer.bic %j (uppercased: %s) is 400 on create", async (bic) => {
    await expectRejected(
      () =>
        api.post("/v1/payment-instructions", {
          ...validInstruction,
          bank_transfer: { ...validInstruction.bank_transfer, bic },
        }),
      "bank_transfer.bic",
    );
  });

  it.each(BICS)("bank_transfer.bic %j (uppercased: %s) is 400 on update", async (bic) => {
    const instruction = await createInstruction(api);
    await expectRejected(
      () => api.patch(`/v1/payment-instructions/${instruction.id}`, { bank_transfer: { bic } }),
      "bank_transfer.bic",
    );
  });
});

describe("invoice currencies and series are ASCII before they are uppercased", () => {
  const simplified = (extra: Record<string, unknown>) => ({
    type: "simplified",
    lines: [{ description: "Workshop", quantity: "1", unit_price: "10", taxes: [] }],
    ...extra,
  });

  it.each(CURRENCIES)("currency %j (uppercased: %s) is 400", async (currency) => {
    await expectRejected(() => global.post("/v1/invoices", simplified({ currency })), "currency");
  });

  it.each(SERIES)("series %j (uppercased: %s) is 400", async (series) => {
    await expectRejected(
      () => global.post("/v1/invoices", simplified({ currency: "USD", series })),
      "series",
    );
  });

  it.each(SERIES)("the list filter series %j (uppercased: %s) is 400", async (series) => {
    await expectRejected(() => global.get(`/v1/invoices?series=${encodeURIComponent(series)}`), "series");
  });

  it("ASCII currency and series are still uppercased", async () => {
    const res = await global.post("/v1/invoices", simplified({ currency: "usd", series: "shop1" }));
    expectStatus(res, 201);
    expect(res.body).toMatchObject({ currency: "USD", series: "SHOP1" });
  });
});
