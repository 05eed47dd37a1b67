import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, EU_MEMBER_STATES, isCountryCode, vatPrefix } from "../../src/lib/countries";

describe("countries", () => {
  it("all 249 officially assigned ISO 3166-1 alpha-2 codes are known", () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    for (const code of ["ES", "GR", "GB", "US", "AQ", "AX", "BQ", "CW", "SS", "SX", "UM", "ZW"]) {
      expect(isCountryCode(code), code).toBe(true);
    }
  });

  it("user-assigned and reserved codes are not country codes", () => {
    for (const code of ["XK", "EL", "UK", "EU", "XI", "AA", "ZZ"]) {
      expect(isCountryCode(code), code).toBe(false);
    }
  });

  it("country codes are matched as given, so input must be uppercased first", () => {
    expect(isCountryCode("es")).toBe(false);
    expect(isCountryCode("Es")).toBe(false);
    expect(isCountryCode("ESP")).toBe(false);
    expect(isCountryCode("")).toBe(false);
  });

  it("the EU has 27 member states, all of them country codes", () => {
    expect(EU_MEMBER_STATES.size).toBe(27);
    for (const code of EU_MEMBER_STATES) expect(COUNTRY_CODES.has(code), code).toBe(true);
  });

  it("Greece is a member state as GR, not EL", () => {
    expect(EU_MEMBER_STATES.has("GR")).toBe(true);
    expect(EU_MEMBER_STATES.has("EL")).toBe(false);
  });

  it("former and non-member European states are not member states", () => {
    for (const code of ["GB", "CH", "NO", "IS", "LI", "AD", "MC", "SM", "VA"]) {
      expect(EU_MEMBER_STATES.has(code), code).toBe(false);
    }
  });

  it("the VAT prefix of Greece is EL and of every other country the country itself", () => {
    expect(vatPrefix("GR")).toBe("EL");
    expect(vatPrefix("ES")).toBe("ES");
    expect(vatPrefix("DE")).toBe("DE");
  });
});
