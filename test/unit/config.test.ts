import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";

const valid = {
  APP_ENV: "production",
  EXPOSE_DB_METRICS: "false",
  WEBHOOK_RETRY_DELAYS: "60,600,3600,21600",
};

describe("configuration is parsed once, and a malformed value is an error", () => {
  it("parses the production vars", () => {
    expect(parseConfig(valid)).toEqual({
      development: false,
      exposeDbMetrics: false,
      webhookRetryDelays: [60, 600, 3600, 21600],
      verificationRetryDelays: [60, 600, 3600, 21600],
      rateLimits: true,
      usagePriceInvoice: 10,
      writeBudget: { live: 1_000_000_000, test: 50_000_000 },
      verifactuSoftware: null,
      verifactuOperator: null,
    });
  });

  it("parses the development vars of npm start", () => {
    const c = parseConfig({
      APP_ENV: "development",
      EXPOSE_DB_METRICS: "true",
      WEBHOOK_RETRY_DELAYS: "2, 4,8,16",
      VERIFICATION_RETRY_DELAYS: "2,4,8,16",
    });
    expect(c).toEqual({
      development: true,
      exposeDbMetrics: true,
      webhookRetryDelays: [2, 4, 8, 16],
      verificationRetryDelays: [2, 4, 8, 16],
      rateLimits: true,
      usagePriceInvoice: 10,
      writeBudget: { live: 1_000_000_000, test: 50_000_000 },
      verifactuSoftware: null,
      verifactuOperator: null,
    });
  });

  it("VERIFICATION_RETRY_DELAYS defaults to compliance.md's 1 min, 10 min, 1 h, 6 h", () => {
    expect(parseConfig(valid).verificationRetryDelays).toEqual([60, 600, 3600, 21600]);
  });

  it("AEAT_VNIF_URL and AEAT_VERIFACTU_URL take other https endpoints", () => {
    const urls = {
      AEAT_VNIF_URL: "https://www10.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP",
      AEAT_VERIFACTU_URL: "https://prewww10.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP",
    };
    expect(parseConfig({ ...valid, ...urls })).toEqual(parseConfig(valid));
  });

  it("VERIFACTU_OPERATOR_NIF and _NAME: the certificate's holder, both or neither, the NIF well-formed", () => {
    const operator = { VERIFACTU_OPERATOR_NIF: "B00000000", VERIFACTU_OPERATOR_NAME: " Operadora SL " };
    expect(parseConfig({ ...valid, ...operator }).verifactuOperator).toEqual({
      nif: "B00000000",
      name: "Operadora SL",
    });
    expect(() => parseConfig({ ...valid, VERIFACTU_OPERATOR_NIF: "B00000000" })).toThrow(
      /VERIFACTU_OPERATOR_NIF and VERIFACTU_OPERATOR_NAME are set together/,
    );
    expect(() => parseConfig({ ...valid, ...operator, VERIFACTU_OPERATOR_NIF: "esb00000000" })).toThrow(
      /VERIFACTU_OPERATOR_NIF: must be a Spanish NIF/,
    );
  });

  it("the write budgets default to 1 GB a day in Live and 50 MB in Test (docs/api-conventions.md#write-budgets)", () => {
    expect(parseConfig(valid).writeBudget).toEqual({ live: 1_000_000_000, test: 50_000_000 });
    expect(parseConfig({ ...valid, WRITE_BUDGET_TEST_BYTES: "4000" }).writeBudget.test).toBe(4000);
  });

  it("USAGE_PRICE_INVOICE defaults to compliance.md's 0.10 EUR, in cents", () => {
    expect(parseConfig(valid).usagePriceInvoice).toBe(10);
  });

  it.each([
    ["0.10", 10],
    ["0.1", 10],
    ["2", 200],
    ["0", 0],
    ["12.34", 1234],
  ])("USAGE_PRICE_INVOICE %s is %i cents", (value, cents) => {
    expect(parseConfig({ ...valid, USAGE_PRICE_INVOICE: value }).usagePriceInvoice).toBe(cents);
  });

  it.each([
    ["a retry list with a word in it", { WEBHOOK_RETRY_DELAYS: "60,ten,3600" }, "WEBHOOK_RETRY_DELAYS"],
    ["a retry list with a negative delay", { WEBHOOK_RETRY_DELAYS: "60,-1" }, "WEBHOOK_RETRY_DELAYS"],
    [
      "a retry delay over the Queues maximum of 12 h",
      { WEBHOOK_RETRY_DELAYS: "43201" },
      "WEBHOOK_RETRY_DELAYS",
    ],
    ["an empty retry list", { WEBHOOK_RETRY_DELAYS: "" }, "WEBHOOK_RETRY_DELAYS"],
    [
      "a verification retry list with a word in it",
      { VERIFICATION_RETRY_DELAYS: "60,ten" },
      "VERIFICATION_RETRY_DELAYS",
    ],
    [
      "a verification retry delay over the Queues maximum of 12 h",
      { VERIFICATION_RETRY_DELAYS: "60,43201" },
      "VERIFICATION_RETRY_DELAYS",
    ],
    ["a usage price with three decimals", { USAGE_PRICE_INVOICE: "0.105" }, "USAGE_PRICE_INVOICE"],
    ["a negative usage price", { USAGE_PRICE_INVOICE: "-0.10" }, "USAGE_PRICE_INVOICE"],
    ["a usage price as a number, not a string", { USAGE_PRICE_INVOICE: 0.1 }, "USAGE_PRICE_INVOICE"],
    ["a usage price with a currency sign", { USAGE_PRICE_INVOICE: "€0.10" }, "USAGE_PRICE_INVOICE"],
    ["a write budget of zero bytes", { WRITE_BUDGET_TEST_BYTES: "0" }, "WRITE_BUDGET_TEST_BYTES"],
    ["a write budget with a unit", { WRITE_BUDGET_LIVE_BYTES: "1GB" }, "WRITE_BUDGET_LIVE_BYTES"],
    ["an unknown APP_ENV", { APP_ENV: "staging" }, "APP_ENV"],
    ["an AEAT census URL that is not a URL", { AEAT_VNIF_URL: "www1.agenciatributaria" }, "AEAT_VNIF_URL"],
    [
      "an AEAT VERI*FACTU URL over plain HTTP",
      { AEAT_VERIFACTU_URL: "http://example.com/x" },
      "AEAT_VERIFACTU_URL",
    ],
    ["a metrics flag that is not true or false", { EXPOSE_DB_METRICS: "yes" }, "EXPOSE_DB_METRICS"],
  ])("%s is rejected, naming the variable", (_, override, name) => {
    expect(() => parseConfig({ ...valid, ...override })).toThrow(name);
  });
});
