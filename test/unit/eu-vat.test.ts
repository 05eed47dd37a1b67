import { describe, expect, it, vi } from "vitest";
import { EU_MEMBER_STATES } from "../../src/lib/countries";
import { isValidSpanishNif } from "../../src/tax-ids/es-nif";
import { checkEuVat, EU_VAT_COUNTRIES, type EuVatCheck } from "../../src/tax-ids/eu-vat";
import invalid from "../fixtures/eu-vat/invalid.json";
import jsvatInvalid from "../fixtures/eu-vat/jsvat-invalid.json";
import sample from "../fixtures/eu-vat/stdnum-sample.json";
import valid from "../fixtures/eu-vat/valid.json";

// Fixtures: python-stdnum's and jsvat's published test numbers, each labelled with
// python-stdnum's verdict (test/fixtures/eu-vat/README.md says where they come from).

type Expected = "format" | "check_digits" | { body: string };

function expectVerdict(result: EuVatCheck, expected: Expected) {
  if (typeof expected === "string") {
    expect(result, JSON.stringify(result)).toMatchObject({ ok: false, reason: expected });
  } else {
    expect(result, JSON.stringify(result)).toEqual({ ok: true, body: expected.body });
  }
}

const withoutEs = [...EU_MEMBER_STATES].filter((c) => c !== "ES").sort();

describe("the rule table", () => {
  it("every member state but ES has a rule (ES is a NIF, checked by es-nif.ts)", () => {
    expect([...EU_VAT_COUNTRIES].sort()).toEqual(withoutEs);
  });

  it("a country without a rule is a format failure, not an exception", () => {
    expect(checkEuVat("ES", "B12345674")).toMatchObject({ ok: false, reason: "format" });
    expect(checkEuVat("XI", "123456789")).toMatchObject({ ok: false, reason: "format" });
  });
});

describe("python-stdnum's test numbers", () => {
  it("the fixtures cover every member state but ES, valid and invalid", () => {
    expect(new Set(valid.map((v) => v.country))).toEqual(new Set(withoutEs));
    expect(new Set(invalid.map((v) => v.country))).toEqual(new Set(withoutEs));
  });

  it.each(valid.map((v) => [v.country, v.number, v] as const))(
    "%s %s (valid in stdnum) passes",
    (_, __, v) => {
      expectVerdict(checkEuVat(v.country, v.body), { body: v.compact });
    },
  );

  it.each(invalid.map((v) => [v.country, v.number, v.reason, v] as const))(
    "%s %s (stdnum: invalid) fails its %s",
    (_, __, ___, v) => {
      expectVerdict(checkEuVat(v.country, v.body), v.reason as "format" | "check_digits");
    },
  );

  it("mutated and random numbers get stdnum's verdict (936 sampled from a 1.5-million-number comparison)", () => {
    expect(sample).toHaveLength(936);
    const differences = (sample as [string, string, string][]).filter(([country, body, want]) => {
      const r = checkEuVat(country, body);
      return (r.ok ? `valid:${r.body}` : r.reason) !== want;
    });
    expect(differences).toEqual([]);
  });
});

describe("the public list of 222 invalid EU VAT numbers (jsvat)", () => {
  const nonEs = jsvatInvalid.filter((v) => v.country !== "ES");
  // stdnum accepts these: Belgian enterprise numbers starting with 1 (issued since 2023) or with
  // leading zeros, and Estonian numbers not starting with 10 (stdnum checks only the weighted sum).
  const stdnumAccepts = [
    "BE1602602623",
    "BE1400521335",
    "BE0000200334",
    "BE1400004463",
    "EE000207418",
    "EE110207418",
  ];

  it("holds 222 numbers, 201 outside Spain", () => {
    expect(jsvatInvalid).toHaveLength(222);
    expect(nonEs).toHaveLength(201);
  });

  it("195 of the 201 are rejected, each for stdnum's reason", () => {
    const rejected = nonEs.filter((v) => !v.ok);
    expect(rejected).toHaveLength(195);
    for (const v of rejected) {
      const r = checkEuVat(v.country, v.body);
      expect(r, v.number).toMatchObject({ ok: false, reason: v.reason });
    }
  });

  it("the 6 that python-stdnum accepts are accepted", () => {
    const accepted = nonEs.filter((v) => checkEuVat(v.country, v.body).ok).map((v) => v.number);
    expect(accepted).toEqual(stdnumAccepts);
    expect(nonEs.filter((v) => v.ok).map((v) => v.number)).toEqual(stdnumAccepts);
  });

  it("the 21 Spanish ones all fail the NIF check, as in stdnum", () => {
    const es = jsvatInvalid.filter((v) => v.country === "ES");
    expect(es).toHaveLength(21);
    for (const v of es) expect(isValidSpanishNif(v.body), v.number).toBe(v.ok);
  });
});

describe("named cases per member state", () => {
  it.each<[string, string, string, Expected]>([
    ["AT: U, 7 digits and the Luhn-derived check digit", "AT", "U13585627", { body: "U13585627" }],
    ["AT: a wrong check digit", "AT", "U13585626", "check_digits"],
    [
      "BE: an old 9-digit number gets its leading 0 and passes mod 97",
      "BE",
      "428759497",
      { body: "0428759497" },
    ],
    ["BE: an enterprise number starting with 1 passes mod 97", "BE", "1000000021", { body: "1000000021" }],
    ["BE: a number starting with 2 is not a Belgian number", "BE", "2000021323", "format"],
    ["BE: an old 9-digit number that fails mod 97", "BE", "431150351", "check_digits"],
    ["BG: a 9-digit legal entity using the fallback weights", "BG", "131272009", { body: "131272009" }],
    ["BG: a 10-digit EGN (personal number with a birth date)", "BG", "7501020018", { body: "7501020018" }],
    ["BG: a 10-digit PNF (a foreigner's number)", "BG", "7111042925", { body: "7111042925" }],
    ["BG: a 10-digit number of another person", "BG", "7153849522", { body: "7153849522" }],
    ["CY: the check letter", "CY", "10259033P", { body: "10259033P" }],
    ["CY: a wrong check letter", "CY", "10259033Z", "check_digits"],
    ["CY: numbers starting with 12 are not issued", "CY", "12259033P", "format"],
    ["CZ: an 8-digit legal entity", "CZ", "25123891", { body: "25123891" }],
    ["CZ: an 8-digit number starting with 9 is not issued", "CZ", "95123891", "format"],
    ["CZ: a 9-digit special number starting with 6", "CZ", "660000002", { body: "660000002" }],
    ["CZ: a 10-digit birth number divisible by 11", "CZ", "7103192745", { body: "7103192745" }],
    ["CZ: a birth number with an impossible date", "CZ", "1103492745", "format"],
    ["CZ: a birth number with a wrong check digit", "CZ", "5001011234", "check_digits"],
    ["DE: ISO 7064 MOD 11-10", "DE", "136695976", { body: "136695976" }],
    ["DE: a number starting with 0", "DE", "011125440", "format"],
    ["FR: a numeric key over the SIREN", "FR", "40303265045", { body: "40303265045" }],
    ["FR: a key with a letter", "FR", "4Z123456782", { body: "4Z123456782" }],
    [
      "FR: a Monaco number (000…) is no SIREN but passes its key",
      "FR",
      "53000004605",
      { body: "53000004605" },
    ],
    ["FR: I and O are not key letters", "FR", "IO334175221", "format"],
    ["FR: a wrong key", "FR", "84323140391", "check_digits"],
    ["GR: an old 8-digit number gets its leading 0", "GR", "94259216", { body: "094259216" }],
    ["GR: a wrong check digit", "GR", "123456781", "check_digits"],
    ["IE: 7 digits and a check letter", "IE", "6433435F", { body: "6433435F" }],
    ["IE: the 2013 format with a second letter in the check", "IE", "6433435OA", { body: "6433435OA" }],
    ["IE: the old format (digit, letter, 5 digits, letter)", "IE", "8D79739I", { body: "8D79739I" }],
    ["IE: X is no check letter", "IE", "1234567X", "format"],
    ["IE: a wrong check letter", "IE", "6433435E", "check_digits"],
    ["IT: an unknown province office code", "IT", "00687129980", "format"],
    ["IT: Luhn", "IT", "00743110157", { body: "00743110157" }],
    ["LT: 9 digits for a legal entity", "LT", "119511515", { body: "119511515" }],
    ["LT: 12 digits for a temporary payer", "LT", "100001919017", { body: "100001919017" }],
    ["LT: the 8th of 9 digits must be 1", "LT", "100001354", "format"],
    ["LV: a legal entity", "LV", "40003521600", { body: "40003521600" }],
    ["LV: a personal code with a birth date", "LV", "16117519997", { body: "16117519997" }],
    ["LV: a personal code starting with 32 (no birth date)", "LV", "32867300679", { body: "32867300679" }],
    ["LV: a personal code with an impossible date", "LV", "16137519997", "format"],
    ["NL: a short number gets its leading zeros", "NL", "4495445B01", { body: "004495445B01" }],
    [
      "NL: a sole trader's 2020 number passes mod 97 over NL and the number",
      "NL",
      "002455799B11",
      { body: "002455799B11" },
    ],
    ["NL: the suffix B00 does not exist", "NL", "004495445B00", "format"],
    ["NL: neither the BSN check nor mod 97 holds", "NL", "123456789B90", "check_digits"],
    ["RO: a 13-digit CNP passes with its CNP check digit", "RO", "1630615123457", { body: "1630615123457" }],
    ["RO: a CNP with an unknown county", "RO", "1630615993454", "format"],
    ["RO: a CNP with a wrong check digit", "RO", "1630615123458", "check_digits"],
    ["RO: a CUI of 2 digits", "RO", "19", { body: "19" }],
    ["RO: a CUI does not start with 0", "RO", "019", "format"],
    ["SE: an organisation number followed by 01", "SE", "123456789701", { body: "123456789701" }],
    ["SE: the suffix must be 01", "SE", "123456789702", "format"],
    ["SK: a company number divisible by 11", "SK", "2022749619", { body: "2022749619" }],
    ["SK: a birth number", "SK", "7103192745", { body: "7103192745" }],
    ["SK: a company number's 3rd digit cannot be 1", "SK", "2010237945", "format"],
  ])("%s", (_, country, body, expected) => {
    expectVerdict(checkEuVat(country, body), expected);
  });

  it.each([
    ["DK", "13585628", "13585627"],
    ["EE", "100931558", "100594103"],
    ["FI", "20774740", "20774741"],
    ["HR", "33392005961", "33392005962"],
    ["HU", "12892312", "12892313"],
    ["LU", "15027442", "15027443"],
    ["MT", "11679112", "11679113"],
    ["PL", "8567346215", "8567346216"],
    ["PT", "501964843", "501964842"],
    ["SI", "50223054", "50223055"],
  ])("%s: %s passes its weighted check and %s does not", (country, good, bad) => {
    expectVerdict(checkEuVat(country, good), { body: good });
    expectVerdict(checkEuVat(country, bad), "check_digits");
  });
});

describe("failures", () => {
  it("a number that fails its check digits is rejected before any registry", () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    expect(checkEuVat("DE", "136695978")).toEqual({
      ok: false,
      reason: "check_digits",
      message: "the check digits of this DE VAT number are wrong",
    });
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it("format failures name the prefix and the expected shape", () => {
    expect(checkEuVat("GR", "12345678X")).toEqual({
      ok: false,
      reason: "format",
      message: "not a valid EL VAT number (9 digits, or an old 8-digit number)",
    });
  });

  it("a check letter is called one", () => {
    expect(checkEuVat("CY", "10259033Z")).toMatchObject({
      message: "the check letter of this CY VAT number is wrong",
    });
    expect(checkEuVat("IE", "6433435E")).toMatchObject({
      message: "the check letter of this IE VAT number is wrong",
    });
    expect(checkEuVat("FR", "84323140391")).toMatchObject({
      message: "the check digits of this FR VAT number are wrong",
    });
  });

  it.each(["8?79739I", "6433435f", "136 695 976", "4495445-B01"])(
    "%s: characters other than A-Z and 0-9 are a format failure (the caller strips separators)",
    (body) => {
      for (const country of ["IE", "DE", "NL"]) expectVerdict(checkEuVat(country, body), "format");
    },
  );

  it.each(withoutEs)("%s: an empty body is a format failure", (country) => {
    expectVerdict(checkEuVat(country, ""), "format");
  });
});
