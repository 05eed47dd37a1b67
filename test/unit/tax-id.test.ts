import { describe, expect, it } from "vitest";
import { checkTaxId, type TaxIdCheck, type TaxIdType } from "../../src/tax-ids/check";
import { isValidSpanishNif } from "../../src/tax-ids/es-nif";

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
    expectOk(check("DE", "eu_vat", "de 136.695-976"), "DE136695976");
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

  it("the DNI number 00000000T is valid (python-stdnum; compliance.md's sandbox value for an unavailable registry)", () => {
    expect(check("ES", "es_nif", "00000000T")).toMatchObject({ ok: true, value: "00000000T" });
    expectError(check("ES", "es_nif", "00000000A"), "tax_id.value", /control character of this DNI is wrong/);
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
  // [country, valid value with its prefix, badly formatted value, value with a wrong check digit]
  // The valid and wrong-check values are python-stdnum's examples (test/fixtures/eu-vat).
  const formats: [string, string, string, string][] = [
    ["AT", "ATU13585627", "AT12345678", "ATU13585626"],
    ["BE", "BE0428759497", "BE2123456789", "BE0431150351"],
    ["BG", "BG175074752", "BG12345678", "BG175074751"],
    ["CY", "CY10259033P", "CY123456789", "CY10259033Z"],
    ["CZ", "CZ25123891", "CZ1234567", "CZ25123890"],
    ["DE", "DE136695976", "DE12345678", "DE136695978"],
    ["DK", "DK13585628", "DK123456789", "DK13585627"],
    ["EE", "EE100931558", "EE1234567890", "EE100594103"],
    ["ES", "ESB12345674", "ESB1234567", "ESB12345675"],
    ["FI", "FI20774740", "FI1234567A", "FI20774741"],
    ["FR", "FR40303265045", "FR1234567890", "FR84323140391"],
    ["GR", "EL094259216", "EL12345678A", "EL123456781"],
    ["HR", "HR33392005961", "HR1234567890", "HR33392005962"],
    ["HU", "HU12892312", "HU123456789", "HU12892313"],
    ["IE", "IE6433435OA", "IE12345678", "IE6433435E"],
    ["IT", "IT00743110157", "IT123456789012", "IT00743110158"],
    ["LT", "LT100001919017", "LT1234567890", "LT100001919018"],
    ["LU", "LU15027442", "LU1234567", "LU15027443"],
    ["LV", "LV40003521600", "LV1234567890", "LV40003521601"],
    ["MT", "MT11679112", "MT123456789", "MT11679113"],
    ["NL", "NL004495445B01", "NL123456789A01", "NL123456789B90"],
    ["PL", "PL8567346215", "PL123456789", "PL8567346216"],
    ["PT", "PT501964843", "PT1234567890", "PT501964842"],
    ["RO", "RO18547290", "RO12345678901", "RO18547291"],
    ["SE", "SE123456789701", "SE12345678901", "SE123456789101"],
    ["SI", "SI50223054", "SI123456789", "SI50223055"],
    ["SK", "SK2022749619", "SK12345678901", "SK2022749618"],
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

  it.each(formats)(
    "a %s VAT number that fails its check digits is rejected before any registry",
    (country, _valid, _bad, wrongCheck) => {
      expectError(
        check(country, "eu_vat", wrongCheck),
        "tax_id.value",
        /check (digits|letter)|control character/,
      );
    },
  );

  it("alternative member state formats are accepted, in python-stdnum's compact form", () => {
    for (const [country, value, stored] of [
      ["BE", "BE428759497", "BE0428759497"],
      ["BE", "BE1000000021", "BE1000000021"],
      ["BG", "BG7501020018", "BG7501020018"],
      ["BG", "BG7111042925", "BG7111042925"],
      ["CZ", "CZ7103192745", "CZ7103192745"],
      ["CZ", "CZ660000002", "CZ660000002"],
      ["FR", "FR4Z123456782", "FR4Z123456782"],
      ["GR", "EL94259216", "EL094259216"],
      ["IE", "IE6433435F", "IE6433435F"],
      ["IE", "IE8D79739I", "IE8D79739I"],
      ["LT", "LT119511515", "LT119511515"],
      ["LV", "LV32867300679", "LV32867300679"],
      ["NL", "NL4495445B01", "NL004495445B01"],
      ["NL", "NL002455799B11", "NL002455799B11"],
      ["RO", "RO19", "RO19"],
      ["RO", "RO1630615123457", "RO1630615123457"],
      ["SK", "SK7103192745", "SK7103192745"],
      ["ES", "ES12345678Z", "ES12345678Z"],
      ["ES", "ESX1234567L", "ESX1234567L"],
      ["ES", "ESQ1234567D", "ESQ1234567D"],
    ] as const) {
      expectOk(check(country, "eu_vat", value), stored);
    }
  });

  it("DK numbers written in pairs are accepted once spaces are removed", () => {
    expectOk(check("DK", "eu_vat", "DK 13 58 56 28"), "DK13585628");
  });

  it("a Spanish VAT number must pass the NIF control check", () => {
    expectError(check("ES", "eu_vat", "ESB12345675"), "tax_id.value", /control character of this entity NIF/);
    expectError(check("ES", "eu_vat", "12345678A"), "tax_id.value", /control character of this DNI/);
  });

  it("Greece is given as GR and stored with the EL prefix", () => {
    expect(check("gr", "eu_vat", "EL094259216")).toEqual({
      ok: true,
      country: "GR",
      type: "eu_vat",
      value: "EL094259216",
    });
    expectOk(check("GR", "eu_vat", "GR094259216"), "EL094259216");
    expectOk(check("GR", "eu_vat", "el 094 259 216"), "EL094259216");
    expectOk(check("GR", "eu_vat", "094259216"), "EL094259216");
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
    expectOk(check("FR", "eu_vat", "DE100000025"), "FRDE100000025");
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
