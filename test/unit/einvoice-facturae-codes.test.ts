import { describe, expect, it } from "vitest";
import {
  FACTURAE_CORRECTION_METHOD,
  FACTURAE_CURRENCIES,
  FACTURAE_DIR3_ROLES,
  FACTURAE_PAYMENT_MEANS,
  FACTURAE_UNITS,
  facturaeCountryOf,
  facturaeReasonOf,
  facturaeSpecialEventOf,
  facturaeTaxTypeOf,
  facturaeUnitOf,
  spanishProvinceOf,
} from "../../src/einvoice/mappings";

// Each row of the Facturae tables (src/einvoice/mappings.ts, section "Facturae"); the tables'
// values are checked against the XSD itself in test/tooling/einvoice-facturae.test.ts.

describe("Facturae corrective reasons", () => {
  it.each([
    ["R1", "16", "Base imponible"],
    [
      "R2",
      "85",
      "Base imponible modificada cuotas repercutidas no satisfechas. Auto de declaración de concurso",
    ],
    ["R3", "16", "Base imponible"],
    ["R4", "10", "Detalle Operación"],
    ["R5", "10", "Detalle Operación"],
  ] as const)("%s is ReasonCode %s, %s", (reason, code, description) => {
    expect(facturaeReasonOf(reason)).toEqual({ code, description });
  });

  it("corrects by differences", () => {
    expect(FACTURAE_CORRECTION_METHOD).toEqual({ code: "02", description: "Rectificación por diferencias" });
  });
});

describe("Facturae units of measure", () => {
  it.each([
    ["C62", "01"],
    ["H87", "01"],
    ["EA", "01"],
    ["HUR", "02"],
    ["KGM", "03"],
    ["LTR", "04"],
    ["XBX", "06"],
    ["XDS", "07"],
    ["XBA", "08"],
    ["XJY", "09"],
    ["XBG", "10"],
    ["XCO", "11"],
    ["XBO", "12"],
    ["XCI", "13"],
    ["CLT", "15"],
    ["CMT", "16"],
    ["XBI", "17"],
    ["DZN", "18"],
    ["XCS", "19"],
    ["XDJ", "20"],
    ["GRM", "21"],
    ["KMT", "22"],
    ["XCA", "23"],
    ["XBH", "24"],
    ["MTR", "25"],
    ["MMT", "26"],
    ["XPK", "28"],
    ["XRO", "30"],
    ["XEN", "31"],
    ["XTB", "32"],
    ["MTQ", "33"],
    ["SEC", "34"],
    ["WTT", "35"],
    ["KWH", "36"],
  ])("%s is %s", (unit, code) => {
    expect(facturaeUnitOf(unit)).toBe(code);
  });

  it("lists exactly the rows tested above", () => {
    expect(Object.keys(FACTURAE_UNITS)).toHaveLength(34);
  });

  it("is 01 (units) without a unit code and 05 (other) for a unit Facturae has no entry for", () => {
    expect(facturaeUnitOf(undefined)).toBe("01");
    expect(facturaeUnitOf("DAY")).toBe("05");
    expect(facturaeUnitOf("MON")).toBe("05");
  });
});

describe("Facturae tax types and special taxable events", () => {
  it.each([
    ["iva", "01"],
    ["ipsi", "02"],
    ["igic", "03"],
    ["irpf", "04"],
    [null, "05"],
  ])("%s is TaxTypeCode %s", (tax, code) => {
    expect(facturaeTaxTypeOf(tax)).toBe(code);
  });

  it.each([
    ["taxable", "S1", null],
    ["exempt", "E1", "01"],
    ["exempt", "E2", "01"],
    ["exempt", "E5", "01"],
    ["not_subject", "N1", "02"],
    ["not_subject", "N2", "02"],
    ["reverse_charge", "N2", "02"],
    ["reverse_charge", "S2", null],
  ])("%s (%s) has special taxable event %s", (treatment, authority_code, code) => {
    expect(facturaeSpecialEventOf({ treatment, authority_code })).toBe(code);
  });
});

describe("Facturae parties and payments", () => {
  it("gives DIR3 units the FACe roles 01–04", () => {
    expect(FACTURAE_DIR3_ROLES.map((r) => [r.field, r.role])).toEqual([
      ["accounting_office", "01"],
      ["managing_body", "02"],
      ["processing_unit", "03"],
      ["proposing_body", "04"],
    ]);
  });

  it("writes a bank transfer as PaymentMeans 04", () => {
    expect(FACTURAE_PAYMENT_MEANS.bank_transfer).toBe("04");
  });

  it.each([
    ["ES", "ESP"],
    ["DE", "DEU"],
    ["GR", "GRC"],
    ["GB", "GBR"],
    ["US", "USA"],
    ["CD", "COD"],
    ["RS", "SRB"],
    ["ME", "MNE"],
    // Territories CountryType has no code of its own for.
    ["CW", "ANT"],
    ["SX", "ANT"],
    ["BQ", "ANT"],
    ["BL", "GLP"],
    ["MF", "GLP"],
    ["SS", "SDN"],
    ["AX", "FIN"],
    ["UM", "USA"],
    ["AQ", null],
    ["XK", null],
  ])("country %s is %s", (alpha2, alpha3) => {
    expect(facturaeCountryOf(alpha2)).toBe(alpha3);
  });

  it.each([
    ["28013", "Madrid"],
    ["01001", "Araba/Álava"],
    ["08006", "Barcelona"],
    ["38001", "Santa Cruz Tenerife"],
    ["52001", "Melilla"],
    ["53001", null],
    ["2801", null],
  ])("postal code %s is in province %s", (postalCode, province) => {
    expect(spanishProvinceOf(postalCode)).toBe(province);
  });

  it("names every province within Province's 20 characters", () => {
    for (let p = 1; p <= 52; p++) {
      const name = spanishProvinceOf(`${String(p).padStart(2, "0")}001`);
      expect(name).not.toBeNull();
      expect(Array.from(name!).length).toBeLessThanOrEqual(20);
    }
  });

  it("serves the currencies Facturae lists that ISO 4217 still has", () => {
    for (const c of ["EUR", "USD", "GBP", "JPY", "CHF", "MXN", "KWD"])
      expect(FACTURAE_CURRENCIES.has(c)).toBe(true);
    // Not in Facturae 3.2.2's CurrencyCodeType, or withdrawn from ISO 4217 since.
    for (const c of ["AED", "BYN", "GHS", "ESP", "VEF"]) expect(FACTURAE_CURRENCIES.has(c)).toBe(false);
  });
});
