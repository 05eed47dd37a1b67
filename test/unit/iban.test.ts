import { describe, expect, it } from "vitest";
import { checkIban, IBAN_LENGTHS } from "../../src/lib/iban";
import { BBAN_STRUCTURES } from "../../src/lib/iban-registry";

// Independent of the code under test: BigInt instead of chunked arithmetic.
function mod97(chars: string): bigint {
  return BigInt([...chars].map((c) => Number.parseInt(c, 36)).join("")) % 97n;
}

/** Builds a valid IBAN for a country and BBAN by computing its ISO 7064 check digits. */
function ibanFor(country: string, bban: string): string {
  const check = String(98n - mod97(`${bban}${country}00`)).padStart(2, "0");
  return `${country}${check}${bban}`;
}

// Spanish CCC digit, written from the definition (weights 2^i mod 11) rather than a table.
function cccDigit(ten: string): string {
  const r = [...ten].reduce((sum, d, i) => sum + Number(d) * (2 ** i % 11), 0) % 11;
  return String(r < 2 ? r : 11 - r);
}

/** A deterministic BBAN that fits a registry structure such as "4!a6!n8!n". */
function sampleBban(country: string): string {
  const structure = BBAN_STRUCTURES[country] as string;
  let seed = country.charCodeAt(0) * 31 + country.charCodeAt(1);
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  let bban = "";
  for (const [, count, type] of structure.matchAll(/(\d+)!([nac])/g)) {
    for (let i = 0; i < Number(count); i++) {
      const pick = type === "n" ? 0 : type === "a" ? 1 : next() % 2;
      bban += pick === 0 ? String(next() % 10) : String.fromCharCode(65 + (next() % 26));
    }
  }
  if (country === "ES") {
    bban = `${bban.slice(0, 8)}${cccDigit(`00${bban.slice(0, 8)}`)}${cccDigit(bban.slice(10))}${bban.slice(10)}`;
  }
  return bban;
}

const PUBLISHED = [
  "DE89370400440532013000",
  "GB82WEST12345698765432",
  "ES9121000418450200051332",
  "FR1420041010050500013M02606",
  "NL91ABNA0417164300",
  "BE68539007547034",
  "AT611904300234573201",
  "CH9300762011623852957",
  "IT60X0542811101000000123456",
  "PL61109010140000071219812874",
  "NO9386011117947",
  "PT50000201231234567890154",
  "SE4550000000058398257466",
  "DK5000400440116243",
  "FI2112345600000785",
  "IE29AIBK93115212345678",
  "LU280019400644750000",
  "MT84MALT011000012345MTLCAST001S",
  "SA0380000000608010167519",
  "GR1601101250000000012300695",
  "HU42117730161111101800000000",
  "BR1800360305000010009795493C1",
];

// The Len column of domain.md §5.1, kept as a literal so a typo in a BBAN structure shows up.
const REGISTRY_LENGTHS =
  "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30";

describe("checkIban", () => {
  it("the length table covers all 89 registry countries with their registry lengths", () => {
    const expected = Object.fromEntries(
      REGISTRY_LENGTHS.split(" ").map((e) => [e.slice(0, 2), Number(e.slice(2))]),
    );
    expect(IBAN_LENGTHS).toEqual(expected);
    expect(Object.keys(IBAN_LENGTHS)).toHaveLength(89);
  });

  it.each(PUBLISHED)("the published example %s is valid", (iban) => {
    expect(checkIban(iban)).toEqual({ ok: true, value: iban });
  });

  it.each(Object.keys(IBAN_LENGTHS))("a %s IBAN built to the registry structure is valid", (country) => {
    const iban = ibanFor(country, sampleBban(country));
    expect(iban).toHaveLength(IBAN_LENGTHS[country] as number);
    expect(checkIban(iban), iban).toEqual({ ok: true, value: iban });
  });

  it("lowercase input with spaces, tabs and newlines is normalised to uppercase without whitespace", () => {
    expect(checkIban(" gb82 west 1234\t5698 7654\n32 ")).toEqual({
      ok: true,
      value: "GB82WEST12345698765432",
    });
    expect(checkIban("fr14 2004 1010 0505 0001 3m02 606")).toEqual({
      ok: true,
      value: "FR1420041010050500013M02606",
    });
  });

  it("characters other than letters, digits and whitespace are a format error", () => {
    for (const input of [
      "DE89-3704-0044-0532-0130-00",
      "DE89.370400440532013000",
      "DE8937040044053201300€",
      "",
    ]) {
      const result = checkIban(input);
      expect(result.ok ? "ok" : result.reason, input).toBe("format");
    }
  });

  it("non-ASCII letters are a format error even where uppercasing would make them ASCII", () => {
    // "ß".toUpperCase() is "SS" and "ſ".toUpperCase() is "S"; neither may sneak through.
    expect(checkIban("GB82WEST12345698765432".replace("S", "ſ"))).toMatchObject({ reason: "format" });
    expect(checkIban("MT84MALT011000012345MTLCAST001S".replace("S", "ſ"))).toMatchObject({
      reason: "format",
    });
    expect(checkIban("DE89370400440532013000".replace("00", "ß"))).toMatchObject({ reason: "format" });
  });

  it("a country outside the IBAN registry is rejected", () => {
    expect(checkIban("US64SVBKUS6S3300958879")).toEqual({
      ok: false,
      reason: "country",
      message: 'IBAN country code "US" is not in the IBAN registry.',
    });
    expect(checkIban("1289370400440532013000")).toMatchObject({ ok: false, reason: "country" });
  });

  it("an IBAN of the wrong length for its country is rejected with both lengths in the message", () => {
    expect(checkIban("DE8937040044053201300")).toEqual({
      ok: false,
      reason: "length",
      message: "IBAN for DE must be 22 characters, got 21.",
    });
    expect(checkIban("DE893704004405320130000")).toMatchObject({ reason: "length" });
    expect(checkIban("NL91ABNA041716430")).toMatchObject({ reason: "length" });
  });

  it("a BBAN that breaks the country structure is rejected even when mod 97 is right", () => {
    const digitsForBankCode = ibanFor("GB", "123412345698765432");
    expect(checkIban(digitsForBankCode)).toEqual({
      ok: false,
      reason: "bban_format",
      message: "IBAN account part for GB must be 4 letters, then 6 digits, then 8 digits.",
    });
    expect(checkIban(ibanFor("DE", "37040044053201300X"))).toMatchObject({ reason: "bban_format" });
    expect(checkIban(ibanFor("NL", "ABNA04171643O0"))).toMatchObject({ reason: "bban_format" });
  });

  it("wrong check digits are rejected", () => {
    expect(checkIban("DE88370400440532013000")).toEqual({
      ok: false,
      reason: "check_digits",
      message: "IBAN check digits are wrong.",
    });
    expect(checkIban("GB82WEST12345698765423")).toMatchObject({ reason: "check_digits" });
    expect(checkIban("NL91ABNA0417164301")).toMatchObject({ reason: "check_digits" });
  });

  it("check digits 00, 01 and 99 are rejected although they alias valid ones under mod 97", () => {
    let two: string | undefined;
    let ninetyEight: string | undefined;
    for (let n = 0; !(two && ninetyEight); n++) {
      const iban = ibanFor("DE", `3704004405${String(n).padStart(8, "0")}`);
      if (iban.slice(2, 4) === "02") two ??= iban;
      if (iban.slice(2, 4) === "98") ninetyEight ??= iban;
    }
    for (const [valid, alias] of [
      [two, "99"],
      [ninetyEight, "01"],
      [ibanFor("BE", "539007547034").replace(/^BE../, "BE97"), "00"],
    ] as const) {
      const aliased = `${valid.slice(0, 2)}${alias}${valid.slice(4)}`;
      expect(mod97(aliased.slice(4) + aliased.slice(0, 4)), aliased).toBe(
        mod97(valid.slice(4) + valid.slice(0, 4)),
      );
      expect(checkIban(aliased), aliased).toMatchObject({ ok: false, reason: "check_digits" });
    }
  });

  it("a Spanish IBAN with correct check digits but a wrong CCC control pair is rejected", () => {
    // ES9121000418450200051332 with DC 45 changed to 46, then re-check-digited so mod 97 holds.
    const iban = ibanFor("ES", "21000418460200051332");
    expect(mod97(iban.slice(4) + iban.slice(0, 4))).toBe(1n);
    expect(checkIban(iban)).toEqual({
      ok: false,
      reason: "national_check_digits",
      message: "Spanish IBAN national check digits (DC) are wrong.",
    });
    expect(checkIban(ibanFor("ES", "21000418540200051332"))).toMatchObject({
      reason: "national_check_digits",
    });
  });
});
