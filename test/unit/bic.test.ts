import { describe, expect, it } from "vitest";
import { checkBic } from "../../src/lib/bic";

describe("checkBic", () => {
  it.each(["DEUTDEFF", "NWBKGB2L", "CAIXESBB", "BNPAFRPP"])(
    "an 8-character BIC such as %s is valid",
    (bic) => {
      expect(checkBic(bic)).toEqual({ ok: true, value: bic });
    },
  );

  it.each(["DEUTDEFF500", "CAIXESBB666", "BSCHESMMXXX"])(
    "an 11-character BIC with a branch such as %s is valid",
    (bic) => {
      expect(checkBic(bic)).toEqual({ ok: true, value: bic });
    },
  );

  it("a location code may contain digits", () => {
    expect(checkBic("NWBKGB2L")).toEqual({ ok: true, value: "NWBKGB2L" });
  });

  it("lowercase input with spaces is normalised to uppercase without whitespace", () => {
    expect(checkBic(" deut de ff 500 ")).toEqual({ ok: true, value: "DEUTDEFF500" });
    expect(checkBic("caix\tesbb")).toEqual({ ok: true, value: "CAIXESBB" });
  });

  it.each(["", "DEUTDEF", "DEUTDEFF5", "DEUTDEFF50", "DEUTDEFF5000"])(
    "a BIC that is not 8 or 11 characters (%j) is rejected",
    (bic) => {
      const result = checkBic(bic);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.message).toBe(`BIC must be 8 or 11 characters, got ${bic.length}.`);
    },
  );

  it("digits in the institution code are rejected", () => {
    expect(checkBic("DE1TDEFF")).toMatchObject({ ok: false });
    expect(checkBic("1234DEFF500")).toMatchObject({ ok: false });
  });

  it("digits in the country code are rejected", () => {
    expect(checkBic("DEUTD1FF")).toMatchObject({ ok: false });
  });

  it("characters other than letters and digits are rejected", () => {
    expect(checkBic("DEUT-DEFF")).toMatchObject({ ok: false });
    expect(checkBic("DEUTDEF_")).toMatchObject({ ok: false });
    // Uppercasing these would give "SS" and "S", so they must be rejected, not normalised.
    expect(checkBic("DEUTDEFß")).toMatchObject({ ok: false });
    expect(checkBic("DEUTDEFFſ00")).toMatchObject({ ok: false });
  });

  it("a country code that is not an ISO 3166-1 country is rejected", () => {
    expect(checkBic("DEUTZZFF")).toEqual({
      ok: false,
      message: 'BIC country code "ZZ" is not an ISO 3166-1 country.',
    });
    expect(checkBic("DEUTXXFF500")).toMatchObject({ ok: false });
  });
});
