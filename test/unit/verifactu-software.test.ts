import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { recordBody } from "../../src/verifactu/record";
import { SOFTWARE, softwareFor } from "../../src/verifactu/software";
import { esInvoice, iva, line } from "../fixtures/verifactu-invoices";

/** The producer identity vitest.config.ts configures, as the [vars] name it. */
const IDENTITY = {
  VERIFACTU_PRODUCER_NAME: "Productora de Pruebas SL",
  VERIFACTU_PRODUCER_NIF: "B87654323",
  VERIFACTU_SYSTEM_NAME: "invoicing-api",
  VERIFACTU_SYSTEM_ID: "IT",
  VERIFACTU_SYSTEM_VERSION: "0.1.0-test",
  VERIFACTU_INSTALLATION_NUMBER: "test-1",
  VERIFACTU_PRODUCER_ADDRESS: "Calle de las Pruebas 1, 28001 Madrid, España",
  VERIFACTU_DECLARATION_PLACE: "Madrid, España",
  VERIFACTU_DECLARATION_DATE: "2026-01-15",
};
const UNSET = Object.fromEntries(Object.keys(IDENTITY).map((name) => [name, ""]));
const production = { APP_ENV: "production", EXPOSE_DB_METRICS: "false", WEBHOOK_RETRY_DELAYS: "60" };

/** The suite's bindings with some [vars] changed: a new object, so parsed afresh. */
const envWith = (vars: Record<string, string>) => ({ ...env, ...vars }) as Env;

describe("the software identity comes from configuration", () => {
  it("the configured identity lands in the record's SistemaInformatico, with the uso flags S", () => {
    const software = softwareFor(env, true);
    const record = recordBody(esInvoice({ lines: [line("1", "100", iva("general"))] }), {
      software: software!,
    });
    expect(record.SistemaInformatico).toEqual({
      NombreRazon: IDENTITY.VERIFACTU_PRODUCER_NAME,
      NIF: IDENTITY.VERIFACTU_PRODUCER_NIF,
      NombreSistemaInformatico: IDENTITY.VERIFACTU_SYSTEM_NAME,
      IdSistemaInformatico: IDENTITY.VERIFACTU_SYSTEM_ID,
      Version: IDENTITY.VERIFACTU_SYSTEM_VERSION,
      NumeroInstalacion: IDENTITY.VERIFACTU_INSTALLATION_NUMBER,
      TipoUsoPosibleSoloVerifactu: "S",
      TipoUsoPosibleMultiOT: "S",
      IndicadorMultiplesOT: "S",
    });
  });

  it("Test mode carries the configured identity too", () => {
    expect(softwareFor(env, false)).toEqual(softwareFor(env, true));
  });

  it("unset in production: Test records carry the development placeholder, Live has none", () => {
    const unset = envWith({ ...UNSET, APP_ENV: "production" });
    expect(softwareFor(unset, false)).toEqual(SOFTWARE);
    expect(SOFTWARE.NombreRazon).toMatch(/development placeholder/);
    expect(softwareFor(unset, true)).toBeNull();
  });

  it("unset under APP_ENV development, Live uses the placeholder so that local Live flows work", () => {
    expect(softwareFor(envWith({ ...UNSET, APP_ENV: "development" }), true)).toEqual(SOFTWARE);
  });

  it("the placeholder NIF is refused in production, and accepted in development", () => {
    const placeholder = { ...IDENTITY, VERIFACTU_PRODUCER_NIF: SOFTWARE.NIF };
    expect(() => parseConfig({ ...production, ...placeholder })).toThrow(
      "Invalid configuration: VERIFACTU_PRODUCER_NIF",
    );
    expect(
      parseConfig({ ...production, ...placeholder, APP_ENV: "development" }).verifactuSoftware,
    ).not.toBeNull();
  });

  it("a NIF whose control character is wrong is refused, by the Spanish NIF check", () => {
    const wrong = envWith({ VERIFACTU_PRODUCER_NIF: "B87654320" });
    expect(() => softwareFor(wrong, true)).toThrow("Invalid configuration: VERIFACTU_PRODUCER_NIF");
    expect(() => softwareFor(wrong, false)).toThrow("VERIFACTU_PRODUCER_NIF");
  });

  it.each([
    ["a 3-character system id", { VERIFACTU_SYSTEM_ID: "ABC" }, "VERIFACTU_SYSTEM_ID"],
    ["a lower-case system id", { VERIFACTU_SYSTEM_ID: "ia" }, "VERIFACTU_SYSTEM_ID"],
    ["a system id with Ñ", { VERIFACTU_SYSTEM_ID: "Ñ1" }, "VERIFACTU_SYSTEM_ID"],
    ["a NIF of 8 characters", { VERIFACTU_PRODUCER_NIF: "B8765432" }, "VERIFACTU_PRODUCER_NIF"],
    ["a NIF with the ES prefix", { VERIFACTU_PRODUCER_NIF: "ESB87654323" }, "VERIFACTU_PRODUCER_NIF"],
    ["a producer name over 120", { VERIFACTU_PRODUCER_NAME: "x".repeat(121) }, "VERIFACTU_PRODUCER_NAME"],
    ["a system name over 30", { VERIFACTU_SYSTEM_NAME: "x".repeat(31) }, "VERIFACTU_SYSTEM_NAME"],
    ["a version over 50", { VERIFACTU_SYSTEM_VERSION: "1".repeat(51) }, "VERIFACTU_SYSTEM_VERSION"],
    [
      "an installation number over 100",
      { VERIFACTU_INSTALLATION_NUMBER: "1".repeat(101) },
      "VERIFACTU_INSTALLATION_NUMBER",
    ],
    ["a date that is not one", { VERIFACTU_DECLARATION_DATE: "2026-02-30" }, "VERIFACTU_DECLARATION_DATE"],
    ["a date in another order", { VERIFACTU_DECLARATION_DATE: "15-01-2026" }, "VERIFACTU_DECLARATION_DATE"],
    ["an identity set in part", { VERIFACTU_PRODUCER_ADDRESS: "" }, "VERIFACTU_PRODUCER_ADDRESS"],
  ])("invalid configuration is refused at startup: %s", (_, override, name) => {
    expect(() => parseConfig({ ...production, ...IDENTITY, ...override })).toThrow(
      `Invalid configuration: ${name}`,
    );
  });

  it("an identity is trimmed, as AEAT stores it, and unset is not an error", () => {
    const c = parseConfig({ ...production, ...IDENTITY, VERIFACTU_SYSTEM_NAME: " invoicing-api " });
    expect(c.verifactuSoftware?.software.NombreSistemaInformatico).toBe("invoicing-api");
    expect(parseConfig({ ...production, ...UNSET }).verifactuSoftware).toBeNull();
    expect(parseConfig(production).verifactuSoftware).toBeNull();
  });
});
