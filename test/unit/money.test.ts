import { describe, expect, it } from "vitest";
import { CURRENCY_EXPONENTS, currencyExponent, isCurrencyCode } from "../../src/lib/currencies";
import {
  canonicalDecimal,
  customRate,
  formatMinor,
  MAX_MINOR,
  multiplyToMinor,
  parseDecimal,
  parsePercent,
  percentOfMinor,
  quantity,
  roundToScale,
  unitPrice,
  withinBound,
} from "../../src/lib/money";

const d = (s: string) => {
  const parsed = parseDecimal(s);
  if (!parsed) throw new Error(`not a decimal: ${s}`);
  return parsed;
};
const pct = (s: string) => {
  const parsed = parsePercent(s);
  if (!parsed) throw new Error(`not a percentage: ${s}`);
  return parsed;
};

describe("currencies", () => {
  it("minor units follow ISO 4217 list one (EUR 2, JPY 0, BHD 3, CLF 4…)", () => {
    const cases: [string, number][] = [
      ["EUR", 2],
      ["USD", 2],
      ["GBP", 2],
      ["JPY", 0],
      ["KRW", 0],
      ["CLP", 0],
      ["XAF", 0],
      ["UYI", 0],
      ["BHD", 3],
      ["KWD", 3],
      ["TND", 3],
      ["IQD", 3],
      ["CLF", 4],
      ["UYW", 4],
      ["XCG", 2],
      ["ZWG", 2],
      ["SLE", 2],
    ];
    for (const [code, exponent] of cases) {
      expect(currencyExponent(code), code).toBe(exponent);
      expect(isCurrencyCode(code), code).toBe(true);
    }
  });

  it("the list holds 165 three-letter codes, each with an exponent of 0, 2, 3 or 4", () => {
    expect(CURRENCY_EXPONENTS.size).toBe(165);
    for (const [code, exponent] of CURRENCY_EXPONENTS) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4], code).toContain(exponent);
    }
  });

  it("codes without a minor unit, withdrawn codes and non-codes are unknown", () => {
    for (const code of [
      "XAU",
      "XAG",
      "XDR",
      "XXX",
      "XTS",
      "XSU",
      "XUA",
      "XBA",
      "BGN",
      "ANG",
      "ZWL",
      "HRK",
      "SLL",
    ]) {
      expect(currencyExponent(code), code).toBeUndefined();
      expect(isCurrencyCode(code), code).toBe(false);
    }
    for (const code of ["eur", "Eur", "EURO", "", "__proto__", "constructor", "toString"]) {
      expect(isCurrencyCode(code), code).toBe(false);
    }
  });
});

describe("parseDecimal", () => {
  it("reads a decimal string into units and the scale as written", () => {
    expect(parseDecimal("0")).toEqual({ units: 0n, scale: 0 });
    expect(parseDecimal("3")).toEqual({ units: 3n, scale: 0 });
    expect(parseDecimal("33.333")).toEqual({ units: 33333n, scale: 3 });
    expect(parseDecimal("-0.5")).toEqual({ units: -5n, scale: 1 });
    expect(parseDecimal("1.50")).toEqual({ units: 150n, scale: 2 });
    expect(parseDecimal("0.000001")).toEqual({ units: 1n, scale: 6 });
    expect(parseDecimal("1000000000000")).toEqual({ units: 1_000_000_000_000n, scale: 0 });
    expect(parseDecimal("-0")).toEqual({ units: 0n, scale: 0 });
  });

  it("accepts only -?digits(.digits): no exponent, plus, bare point, spaces or leading zeros", () => {
    for (const s of [
      "",
      "-",
      ".5",
      "5.",
      "+1",
      "--1",
      "1e3",
      "1E3",
      "01",
      "00",
      "-01",
      "00.5",
      " 1",
      "1 ",
      "1,5",
      "1_000",
      "0x10",
      "\u22121",
      "\u0661",
      "Infinity",
      "NaN",
      "1.2.3",
    ]) {
      expect(parseDecimal(s), JSON.stringify(s)).toBeNull();
    }
  });
});

describe("parsePercent", () => {
  it("reads the number before the percent sign, as catalog and custom rates are written", () => {
    expect(parsePercent("21%")).toEqual({ units: 21n, scale: 0 });
    expect(parsePercent("5.2%")).toEqual({ units: 52n, scale: 1 });
    expect(parsePercent("0.625%")).toEqual({ units: 625n, scale: 3 });
    expect(parsePercent("0%")).toEqual({ units: 0n, scale: 0 });
  });

  it("needs exactly one trailing percent sign after a strict decimal", () => {
    for (const s of ["21", "%", "21 %", "21%%", "%21", "21% ", ".5%", "1e1%"]) {
      expect(parsePercent(s), JSON.stringify(s)).toBeNull();
    }
  });
});

describe("canonicalDecimal", () => {
  it("drops trailing fractional zeros only", () => {
    expect(canonicalDecimal({ units: 3000n, scale: 3 })).toBe("3");
    expect(canonicalDecimal({ units: 33333n, scale: 3 })).toBe("33.333");
    expect(canonicalDecimal({ units: 150n, scale: 2 })).toBe("1.5");
    expect(canonicalDecimal({ units: 1000n, scale: 0 })).toBe("1000");
    expect(canonicalDecimal({ units: 10100n, scale: 2 })).toBe("101");
    expect(canonicalDecimal({ units: 1n, scale: 6 })).toBe("0.000001");
  });

  it('writes negatives with a minus and zero as "0", never "-0"', () => {
    expect(canonicalDecimal({ units: -50n, scale: 2 })).toBe("-0.5");
    expect(canonicalDecimal({ units: -100n, scale: 0 })).toBe("-100");
    expect(canonicalDecimal({ units: 0n, scale: 4 })).toBe("0");
    expect(canonicalDecimal(d("-0.000"))).toBe("0");
  });
});

describe("roundToScale", () => {
  it("rounding is half away from zero, not half to even", () => {
    expect(roundToScale(99999n, 3, 2)).toBe(10000n); // 99.999 → 100.00
    expect(roundToScale(-5n, 3, 2)).toBe(-1n); // -0.005 → -0.01
    expect(roundToScale(5n, 3, 2)).toBe(1n); // 0.005 → 0.01
    expect(roundToScale(4n, 3, 2)).toBe(0n); // 0.004 → 0.00
    expect(roundToScale(-4n, 3, 2)).toBe(0n); // -0.004 → 0.00
    expect(roundToScale(25n, 1, 0)).toBe(3n); // 2.5 → 3
    expect(roundToScale(-25n, 1, 0)).toBe(-3n); // -2.5 → -3
    expect(roundToScale(35n, 1, 0)).toBe(4n); // 3.5 → 4
    expect(roundToScale(5n, 1, 0)).toBe(1n); // 0.5 → 1
    expect(roundToScale(24999n, 4, 0)).toBe(2n); // 2.4999 → 2
    expect(roundToScale(-24999n, 4, 0)).toBe(-2n);
  });

  it("rounds half cases to three decimals", () => {
    expect(roundToScale(12345n, 4, 3)).toBe(1235n); // 1.2345 → 1.235
    expect(roundToScale(-12345n, 4, 3)).toBe(-1235n);
    expect(roundToScale(12344n, 4, 3)).toBe(1234n);
    expect(roundToScale(5n, 4, 3)).toBe(1n); // 0.0005 → 0.001
  });

  it("scales up exactly and leaves an equal scale alone", () => {
    expect(roundToScale(5n, 0, 2)).toBe(500n);
    expect(roundToScale(-7n, 1, 3)).toBe(-700n);
    expect(roundToScale(123n, 2, 2)).toBe(123n);
  });
});

describe("multiplyToMinor", () => {
  it("3 × 33.333 is 100.00 in EUR (99.999 rounds up)", () => {
    expect(multiplyToMinor(d("3"), d("33.333"), 2)).toBe(10000n);
  });

  it("rounds half away from zero at exponent 0 (JPY)", () => {
    expect(multiplyToMinor(d("3"), d("33.5"), 0)).toBe(101n); // 100.5
    expect(multiplyToMinor(d("3"), d("-33.5"), 0)).toBe(-101n);
    expect(multiplyToMinor(d("1"), d("0.49"), 0)).toBe(0n);
  });

  it("rounds half away from zero at exponent 2 (EUR)", () => {
    expect(multiplyToMinor(d("0.5"), d("0.01"), 2)).toBe(1n); // 0.005
    expect(multiplyToMinor(d("0.5"), d("-0.01"), 2)).toBe(-1n);
    expect(multiplyToMinor(d("0.4"), d("0.01"), 2)).toBe(0n);
    expect(multiplyToMinor(d("2"), d("0.0025"), 2)).toBe(1n); // 0.005
  });

  it("rounds half away from zero at exponent 3 (BHD)", () => {
    expect(multiplyToMinor(d("0.5"), d("0.001"), 3)).toBe(1n); // 0.0005
    expect(multiplyToMinor(d("0.5"), d("-0.001"), 3)).toBe(-1n);
    expect(multiplyToMinor(d("0.4"), d("0.001"), 3)).toBe(0n);
    expect(multiplyToMinor(d("1.5"), d("1.111"), 3)).toBe(1667n); // 1.6665
  });

  it("is exact for the largest quantity × price (no float precision loss)", () => {
    expect(multiplyToMinor(d("1000000000"), d("1000000000000"), 2)).toBe(10n ** 23n);
    expect(multiplyToMinor(d("999999999.999999"), d("999999999999.999999"), 2)).toBe(
      99999999999999899900000n, // 10^21 − 10^6 − 10^3 + 10^-12 = 999999999999998999000.000000000001
    );
  });
});

describe("percentOfMinor", () => {
  it("takes the rate as a percentage of minor units and rounds half away from zero", () => {
    expect(percentOfMinor(10000n, pct("21%"))).toBe(2100n);
    expect(percentOfMinor(10000n, pct("15%"))).toBe(1500n);
    expect(percentOfMinor(26n, pct("21%"))).toBe(5n); // 5.46
    expect(percentOfMinor(1n, pct("50%"))).toBe(1n); // 0.5
    expect(percentOfMinor(-1n, pct("50%"))).toBe(-1n);
    expect(percentOfMinor(1040n, pct("0.625%"))).toBe(7n); // 6.5
    expect(percentOfMinor(-1040n, pct("0.625%"))).toBe(-7n);
    expect(percentOfMinor(1000n, pct("0.625%"))).toBe(6n); // 6.25
    expect(percentOfMinor(9998n, pct("7.5%"))).toBe(750n); // 749.85
    expect(percentOfMinor(1n, pct("5.2%"))).toBe(0n);
    expect(percentOfMinor(999n, pct("100%"))).toBe(999n);
    expect(percentOfMinor(12345n, pct("0%"))).toBe(0n);
  });
});

describe("formatMinor", () => {
  it("writes exactly `exponent` decimals", () => {
    expect(formatMinor(121000n, 2)).toBe("1210.00");
    expect(formatMinor(1210n, 0)).toBe("1210");
    expect(formatMinor(1210n, 3)).toBe("1.210");
    expect(formatMinor(5n, 3)).toBe("0.005");
    expect(formatMinor(1n, 4)).toBe("0.0001");
    expect(formatMinor(7n, 2)).toBe("0.07");
  });

  it('writes negatives with a minus and zero never as "-0.00"', () => {
    expect(formatMinor(-50n, 2)).toBe("-0.50");
    expect(formatMinor(-5n, 3)).toBe("-0.005");
    expect(formatMinor(-1210n, 0)).toBe("-1210");
    expect(formatMinor(0n, 2)).toBe("0.00");
    expect(formatMinor(0n, 0)).toBe("0");
    expect(formatMinor(-0n, 3)).toBe("0.000");
    expect(formatMinor(-(10n ** 15n), 2)).toBe("-10000000000000.00");
  });
});

describe("the ±10^15 bound", () => {
  it("includes ±10^15 minor units and excludes one more", () => {
    expect(MAX_MINOR).toBe(1_000_000_000_000_000n);
    expect(withinBound(0n)).toBe(true);
    expect(withinBound(10n ** 15n)).toBe(true);
    expect(withinBound(-(10n ** 15n))).toBe(true);
    expect(withinBound(10n ** 15n + 1n)).toBe(false);
    expect(withinBound(-(10n ** 15n) - 1n)).toBe(false);
  });
});

const problem = (schema: typeof quantity, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : r.error.issues[0]?.message;
};

describe("request field schemas", () => {
  it("quantity is a decimal string > 0 with at most 6 decimals, at most 1,000,000,000", () => {
    for (const ok of ["1", "3", "0.000001", "2.50", "1000000000", "1000000000.000000"]) {
      expect(problem(quantity, ok), ok).toBeNull();
    }
    expect(quantity.parse("2.50")).toBe("2.50");
    expect(problem(quantity, "0")).toBe("must be greater than 0");
    expect(problem(quantity, "-1")).toBe("must be greater than 0");
    expect(problem(quantity, "0.0000001")).toBe("must have at most 6 decimals");
    expect(problem(quantity, "1000000000.000001")).toBe("must be at most 1000000000");
    expect(problem(quantity, "1000000001")).toBe("must be at most 1000000000");
    expect(problem(quantity, "1e3")).toBe('must be a decimal string such as "2.5"');
    expect(problem(quantity, "")).toBe('must be a decimal string such as "2.5"');
  });

  it("a number string of more than 32 characters is refused unparsed; the longest values in bounds are 21", () => {
    expect(problem(unitPrice, "-1000000000000.000000")).toBeNull();
    expect(problem(quantity, `1000000000.${"0".repeat(22)}`)).toBe(
      "must be a decimal string of at most 32 characters",
    );
    const huge = `1${"0".repeat(900_000)}`;
    expect(problem(unitPrice, huge)).toBe("must be a decimal string of at most 32 characters");
    expect(problem(customRate, `${huge}%`)).toBe("must be a percentage string of at most 32 characters");
  });

  it("a JSON number is not accepted where a decimal string is expected", () => {
    expect(problem(quantity, 3)).toBe('must be a decimal string such as "2.5", not a JSON number');
    expect(problem(unitPrice, 9.99)).toBe('must be a decimal string such as "33.333", not a JSON number');
    expect(problem(customRate, 10)).toBe('must be a percentage string such as "7.5%", not a JSON number');
  });

  it("unit_price may be negative, with at most 6 decimals and |x| ≤ 1,000,000,000,000", () => {
    for (const ok of ["0", "-5", "33.333", "0.000001", "1000000000000", "-1000000000000"]) {
      expect(problem(unitPrice, ok), ok).toBeNull();
    }
    expect(unitPrice.parse("-5.10")).toBe("-5.10");
    expect(problem(unitPrice, "1.1234567")).toBe("must have at most 6 decimals");
    expect(problem(unitPrice, "1000000000000.000001")).toBe(
      "must be between -1000000000000 and 1000000000000",
    );
    expect(problem(unitPrice, "-1000000000001")).toBe("must be between -1000000000000 and 1000000000000");
    expect(problem(unitPrice, "+5")).toBe('must be a decimal string such as "33.333"');
  });

  it("a custom rate is a percentage from 0% to 100% with at most 4 decimals", () => {
    for (const ok of ["0%", "10%", "7.5%", "0.0001%", "100%", "100.0000%"]) {
      expect(problem(customRate, ok), ok).toBeNull();
    }
    expect(customRate.parse("10%")).toBe("10%");
    expect(problem(customRate, "100.0001%")).toBe("must be between 0% and 100%");
    expect(problem(customRate, "101%")).toBe("must be between 0% and 100%");
    expect(problem(customRate, "-1%")).toBe("must be between 0% and 100%");
    expect(problem(customRate, "10.12345%")).toBe("must have at most 4 decimals");
    for (const bad of ["10", "10 %", "%", "0.1"]) {
      expect(problem(customRate, bad), bad).toBe('must be a percentage string such as "7.5%"');
    }
  });
});
