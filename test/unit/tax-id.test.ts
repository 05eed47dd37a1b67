import { describe, expect, it } from "vitest";
import { isValidSpanishNif } from "../../src/lib/es-nif";
import { checkTaxId, type TaxIdCheck, type TaxIdType } from "../../src/lib/tax-id";

const check = (country: string, type: TaxIdType, value: string) => checkTaxId({ country, type, value });

function expectOk(result: TaxIdCheck, value: string) {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, value });
}

function expectError(result: TaxIdCheck, param: "tax_id.country" | "tax_id.value", message?: RegExp) {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: false, param });
  if (message && !result.ok) expect(result.message).toMatch(message);
}

describe("tax_id country", () => {
  it("the country is uppercased", () => {
    expect(check("es", "es_nif", "12345678Z")).toEqual({
      ok: true,
      country: "ES",
      type: "es_nif",
      value: "12345678Z",
    });
  });

  it.each(["XX", "EL", "UK", "XK", "ESP", "E", ""])("country %j is not an ISO 3166-1 alpha-2 code", (c) => {
    expectError(check(c, "local", "ABC123"), "tax_id.country", /ISO 3166-1 alpha-2/);
  });

  it("the country is checked before the value", () => {
    expectError(check("XX", "local", ""), "tax_id.country");
    expectError(check("FR", "es_nif", ""), "tax_id.country");
  });

  it.each(["FR", "PT", "AD", "US"])("es_nif requires country ES (%s is rejected)", (c) => {
    expectError(check(c, "es_nif", "12345678Z"), "tax_id.country", /es_nif.*ES/);
  });

  it.each(["US", "GB", "CH", "NO", "AD"])("eu_vat requires an EU member state (%s is rejected)", (c) => {
    expectError(check(c, "eu_vat", "123456789"), "tax_id.country", /eu_vat.*EU member state/);
  });

  it.each(["ES", "US", "GB", "AQ", "GR"])("local accepts any country (%s)", (c) => {
    expectOk(check(c, "local", "ABC123"), "ABC123");
  });
});

describe("tax_id value normalisation", () => {
  it("values are uppercased and spaces, dots and hyphens removed", () => {
    expectOk(check("ES", "es_nif", " 12.345.678-z "), "12345678Z");
    expectOk(check("ES", "es_nif", "b-1234567 4"), "B12345674");
    expectOk(check("DE", "eu_vat", "de 123.456-789"), "DE123456789");
    expectOk(check("US", "local", "ab-12.3 4"), "AB1234");
  });

  it.each(["", "   ", " .-. "])("a value empty after normalisation (%j) is rejected", (v) => {
    expectError(check("US", "local", v), "tax_id.value", /empty/);
    expectError(check("ES", "es_nif", v), "tax_id.value", /empty/);
  });

  it.each(["AB/12", "AB_12", "AB,12", "ÄB12", "straße", "AB\t12"])(
    "characters other than letters, digits and separators (%j) are rejected",
    (v) => {
      expectError(check("US", "local", v), "tax_id.value", /only letters A-Z, digits/);
      expectError(check("ES", "es_nif", v), "tax_id.value", /only letters A-Z, digits/);
    },
  );
});

describe("es_nif", () => {
  it.each(["12345678Z", "00000001R", "87654321X"])(
    "a DNI with the right control letter (%s) is valid",
    (v) => {
      expectOk(check("ES", "es_nif", v), v);
    },
  );

  it.each(["12345678A", "00000001T", "87654321Z"])(
    "a DNI with a wrong control letter (%s) is rejected",
    (v) => {
      expectError(check("ES", "es_nif", v), "tax_id.value", /control character of this DNI is wrong/);
    },
  );

  it("the DNI number 00000000 is rejected", () => {
    expectError(check("ES", "es_nif", "00000000T"), "tax_id.value", /not a valid Spanish NIF/);
  });

  it.each(["X1234567L", "Y1234567X", "Z1234567R"])(
    "a NIE with the right control letter (%s) is valid",
    (v) => {
      expectOk(check("ES", "es_nif", v), v);
    },
  );

  it.each(["X1234567T", "Y1234567L", "Z1234567X"])(
    "a NIE with a wrong control letter (%s) is rejected",
    (v) => {
      expectError(check("ES", "es_nif", v), "tax_id.value", /control character of this NIE is wrong/);
    },
  );

  it.each(["A12345674", "B12345674", "E76543214", "H00000000", "A58818501"])(
    "an entity NIF of a letter that takes a control digit (%s) is valid",
    (v) => expectOk(check("ES", "es_nif", v), v),
  );

  it.each(["P1234567D", "Q1234567D", "R7654321D", "S0000000J", "W1234567D", "N1234567D"])(
    "an entity NIF of a letter that takes a control letter (%s) is valid",
    (v) => expectOk(check("ES", "es_nif", v), v),
  );

  it.each(["C12345674", "C1234567D", "G00000000", "G0000000J", "U1234567D", "V12345674", "J12345674"])(
    "an entity NIF of a letter that takes either control form (%s) is valid",
    (v) => expectOk(check("ES", "es_nif", v), v),
  );

  it.each(["B12345675", "G1234567C", "Q1234567E", "A1234567D", "B1234567D", "P12345674", "S00000000"])(
    "an entity NIF with a wrong or wrongly typed control character (%s) is rejected",
    (v) =>
      expectError(check("ES", "es_nif", v), "tax_id.value", /control character of this entity NIF is wrong/),
  );

  it.each(["K1234567L", "L1234567L", "M7654321J"])(
    "a K, L or M NIF takes the DNI letter of its 7 digits (%s is valid)",
    (v) => expectOk(check("ES", "es_nif", v), v),
  );

  it.each(["K12345674", "L1234567D", "M7654321X"])(
    "a K, L or M NIF with another control character (%s) is rejected",
    (v) =>
      expectError(check("ES", "es_nif", v), "tax_id.value", /control character of this K\/L\/M NIF is wrong/),
  );

  it("a leading ES is dropped from the stored value", () => {
    expectOk(check("ES", "es_nif", "ES12345678Z"), "12345678Z");
    expectOk(check("ES", "es_nif", "es-b12345674"), "B12345674");
  });

  it.each([
    "1234567Z",
    "123456789Z",
    "I1234567J",
    "T12345674",
    "X12345678",
    "12345678",
    "ES",
    "ESES12345678Z",
  ])("a value that is not shaped like a NIF (%s) is rejected", (v) =>
    expectError(check("ES", "es_nif", v), "tax_id.value", /not a valid Spanish NIF/),
  );

  it("isValidSpanishNif checks normalised codes only", () => {
    expect(isValidSpanishNif("12345678Z")).toBe(true);
    expect(isValidSpanishNif("X1234567L")).toBe(true);
    expect(isValidSpanishNif("B12345674")).toBe(true);
    expect(isValidSpanishNif("12345678z")).toBe(false);
    expect(isValidSpanishNif("ES12345678Z")).toBe(false);
    expect(isValidSpanishNif("12345678A")).toBe(false);
  });
});

describe("eu_vat", () => {
  // [country, well-formed value with its prefix, badly formatted value]
  const formats: [string, string, string][] = [
    ["AT", "ATU12345678", "AT12345678"],
    ["BE", "BE0123456789", "BE2123456789"],
    ["BG", "BG1234567890", "BG12345678"],
    ["CY", "CY12345678L", "CY123456789"],
    ["CZ", "CZ12345678", "CZ1234567"],
    ["DE", "DE123456789", "DE12345678"],
    ["DK", "DK12345678", "DK123456789"],
    ["EE", "EE123456789", "EE1234567890"],
    ["ES", "ESB12345674", "ESB1234567"],
    ["FI", "FI12345678", "FI1234567A"],
    ["FR", "FRAB123456789", "FR1234567890"],
    ["GR", "EL123456789", "EL12345678A"],
    ["HR", "HR12345678901", "HR1234567890"],
    ["HU", "HU12345678", "HU123456789"],
    ["IE", "IE1234567WA", "IE12345678"],
    ["IT", "IT12345678901", "IT123456789012"],
    ["LT", "LT123456789012", "LT1234567890"],
    ["LU", "LU12345678", "LU1234567"],
    ["LV", "LV12345678901", "LV1234567890"],
    ["MT", "MT12345678", "MT123456789"],
    ["NL", "NL123456789B01", "NL123456789A01"],
    ["PL", "PL1234567890", "PL123456789"],
    ["PT", "PT123456789", "PT1234567890"],
    ["RO", "RO1234567890", "RO12345678901"],
    ["SE", "SE123456789012", "SE12345678901"],
    ["SI", "SI12345678", "SI123456789"],
    ["SK", "SK1234567890", "SK12345678901"],
  ];

  it("every member state has a format case", () => {
    expect(new Set(formats.map(([c]) => c)).size).toBe(27);
  });

  it.each(formats)("a well-formed %s VAT number is accepted and stored with its prefix", (country, valid) => {
    expectOk(check(country, "eu_vat", valid), valid);
  });

  it.each(formats)("a well-formed %s VAT number without its prefix gets the prefix", (country, valid) => {
    expectOk(check(country, "eu_vat", valid.slice(2)), valid);
  });

  it.each(formats)("a badly formatted %s VAT number is rejected", (country, _valid, bad) => {
    expectError(check(country, "eu_vat", bad), "tax_id.value", /not a valid|control character/);
  });

  it("alternative member state formats are accepted", () => {
    for (const [country, value] of [
      ["BE", "BE1123456789"],
      ["BG", "BG123456789"],
      ["CZ", "CZ1234567890"],
      ["FR", "FR12345678901"],
      ["IE", "IE1234567T"],
      ["IE", "IE8Z49289F"],
      ["LT", "LT123456789"],
      ["RO", "RO12"],
      ["ES", "ES12345678Z"],
      ["ES", "ESX1234567L"],
      ["ES", "ESQ1234567D"],
    ] as const) {
      expectOk(check(country, "eu_vat", value), value);
    }
  });

  it("DK numbers written in pairs are accepted once spaces are removed", () => {
    expectOk(check("DK", "eu_vat", "DK 12 34 56 78"), "DK12345678");
  });

  it("a Spanish VAT number must pass the NIF control check", () => {
    expectError(check("ES", "eu_vat", "ESB12345675"), "tax_id.value", /control character of this entity NIF/);
    expectError(check("ES", "eu_vat", "12345678A"), "tax_id.value", /control character of this DNI/);
  });

  it("Greece is given as GR and stored with the EL prefix", () => {
    expect(check("gr", "eu_vat", "EL123456789")).toEqual({
      ok: true,
      country: "GR",
      type: "eu_vat",
      value: "EL123456789",
    });
    expectOk(check("GR", "eu_vat", "GR123456789"), "EL123456789");
    expectOk(check("GR", "eu_vat", "el 123 456 789"), "EL123456789");
    expectOk(check("GR", "eu_vat", "123456789"), "EL123456789");
  });

  it("EL is not accepted as a country", () => {
    expectError(check("EL", "eu_vat", "EL123456789"), "tax_id.country");
  });

  it.each([
    ["ES", "FRB12345674", "FR"],
    ["DE", "FR123456789", "FR"],
    ["DE", "EL123456789", "EL"],
    ["DE", "GR123456789", "GR"],
    ["GR", "DE123456789", "DE"],
    ["PT", "ES123456789", "ES"],
  ])("a %s VAT number with another member state's prefix (%s) is rejected", (country, value, prefix) => {
    expectError(
      check(country, "eu_vat", value),
      "tax_id.value",
      new RegExp(`prefix ${prefix} does not match country ${country}`),
    );
  });

  it("a French VAT key made of letters is not mistaken for another member state's prefix", () => {
    expectOk(check("FR", "eu_vat", "DE123456789"), "FRDE123456789");
  });

  it("a non-member prefix is a format error", () => {
    expectError(check("DE", "eu_vat", "GB123456789"), "tax_id.value", /not a valid DE VAT number/);
  });

  it("a prefix with nothing after it is rejected", () => {
    expectError(check("DE", "eu_vat", "DE"), "tax_id.value", /not a valid DE VAT number/);
  });
});

describe("local", () => {
  it("values of 1 to 32 letters and digits are accepted", () => {
    expectOk(check("US", "local", "1"), "1");
    expectOk(check("US", "local", "12-3456789"), "123456789");
    expectOk(check("GB", "local", "gb 123 4567 89"), "GB123456789");
    expectOk(check("CH", "local", "A".repeat(32)), "A".repeat(32));
  });

  it("values longer than 32 characters after normalisation are rejected", () => {
    expectError(check("US", "local", "A".repeat(33)), "tax_id.value", /at most 32/);
    expectOk(check("US", "local", `${"A".repeat(32)}---`), "A".repeat(32));
  });
});
