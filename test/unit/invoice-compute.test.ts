import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors";
import {
  type ComputeInput,
  type CustomTaxInput,
  computeInvoice,
  type EsTaxInput,
  type LineInput,
} from "../../src/invoices/compute";

const IVA_NAME = "Impuesto sobre el Valor Añadido (IVA)";
const IRPF_NAME = "Impuesto sobre la Renta de las Personas Físicas (IRPF)";

type Tax = EsTaxInput | CustomTaxInput;

function line(quantity: string, unit_price: string, ...taxes: Tax[]): LineInput {
  return { description: "Item", quantity, unit_price, taxes };
}

const iva = (rule: string) => ({ tax: "iva", rule });
const irpf = (rule: string) => ({ tax: "irpf", rule });
const re = (rule: string) => ({ tax: "recargo_equivalencia", rule });
const custom = (name: string, rate: string, effect: "added" | "withheld" = "added") => ({
  name,
  rate,
  effect,
});

function es(lines: LineInput[], supply = "2026-11-23", withholding = supply) {
  return computeInvoice({ regime: "es", exponent: 2, lines, taxDates: { supply, withholding } });
}

function global(lines: LineInput[], exponent = 2) {
  const taxDates = { supply: "2026-11-23", withholding: "2026-11-23" };
  return computeInvoice({ regime: "global", exponent, lines, taxDates });
}

/** The ApiError `fn` throws (fails the test when it throws nothing or something else). */
function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

/** `[param, message]` of the 400 `parameter_invalid` that `fn` throws. */
function rejected(fn: () => unknown): [string | undefined, string] {
  const e = errorOf(fn);
  expect(e.code).toBe("parameter_invalid");
  expect(e.status).toBe(400);
  return [e.param, e.message];
}

const totalsOf = (inv: ReturnType<typeof computeInvoice>) => ({
  subtotal: inv.subtotal,
  total_tax_added: inv.total_tax_added,
  total_tax_withheld: inv.total_tax_withheld,
  total: inv.total,
  amount_payable: inv.amount_payable,
});

describe("computeInvoice: the spec's worked example", () => {
  it("3 × 33.333 with IVA general and IRPF professional in 2026: 100.00, 21.00, 15.00, 121.00, 106.00", () => {
    const inv = es([line("3", "33.333", iva("general"), irpf("professional"))]);
    expect(inv.lines).toEqual([
      {
        description: "Item",
        quantity: "3",
        unit_price: "33.333",
        amount: 10000n,
        taxes: [
          {
            tax: "iva",
            rule: "general",
            name: IVA_NAME,
            treatment: "taxable",
            effect: "added",
            rate: "21%",
            authority_code: "S1",
          },
          {
            tax: "irpf",
            rule: "professional",
            name: IRPF_NAME,
            treatment: "taxable",
            effect: "withheld",
            rate: "15%",
            authority_code: null,
          },
        ],
      },
    ]);
    expect(inv.tax_breakdown).toEqual([
      {
        tax: "iva",
        rule: "general",
        name: IVA_NAME,
        description: "IVA general rate",
        treatment: "taxable",
        effect: "added",
        rate: "21%",
        authority_code: "S1",
        legal_reference: "Ley 37/1992, art. 90; RDL 20/2012",
        base: 10000n,
        amount: 2100n,
      },
      {
        tax: "irpf",
        rule: "professional",
        name: IRPF_NAME,
        description: "IRPF withholding, professional activities",
        treatment: "taxable",
        effect: "withheld",
        rate: "15%",
        authority_code: null,
        legal_reference: "Ley 35/2006, art. 101; RDL 9/2015",
        base: 10000n,
        amount: 1500n,
      },
    ]);
    expect(totalsOf(inv)).toEqual({
      subtotal: 10000n,
      total_tax_added: 2100n,
      total_tax_withheld: 1500n,
      total: 12100n,
      amount_payable: 10600n,
    });
  });
});

describe("computeInvoice: line amounts", () => {
  it("quantities and prices read back as canonical decimals", () => {
    const inv = es([line("3.000", "-0.50", iva("general"))]);
    expect(inv.lines[0]).toMatchObject({ quantity: "3", unit_price: "-0.5", amount: -150n });
  });

  it("rounding is half away from zero at the currency's exponent (0, 2 and 3)", () => {
    const amounts = (exponent: number, ...prices: string[]) =>
      global(
        prices.map((p) => line("1", p)),
        exponent,
      ).lines.map((l) => l.amount);
    expect(amounts(0, "0.5", "-0.5", "2.5", "-2.5", "0.49")).toEqual([1n, -1n, 3n, -3n, 0n]);
    expect(amounts(2, "0.005", "-0.005", "0.004", "99.995", "-99.995")).toEqual([
      1n,
      -1n,
      0n,
      10000n,
      -10000n,
    ]);
    expect(amounts(3, "0.0005", "-0.0005", "0.0004", "1.2345")).toEqual([1n, -1n, 0n, 1235n]);
  });

  it("a negative line (a correction) gives negative amounts, taxes and totals", () => {
    const inv = es([line("2", "-10.005", iva("general"), irpf("professional"))]);
    // 2 × -10.005 = -20.01; IVA 21 % of -20.01 = -4.2021 → -4.20; IRPF 15 % = -3.0015 → -3.00.
    expect(inv.lines[0]!.amount).toBe(-2001n);
    expect(inv.tax_breakdown.map((r) => r.amount)).toEqual([-420n, -300n]);
    expect(totalsOf(inv)).toEqual({
      subtotal: -2001n,
      total_tax_added: -420n,
      total_tax_withheld: -300n,
      total: -2421n,
      amount_payable: -2121n,
    });
  });
});

describe("computeInvoice: the tax breakdown", () => {
  it("lines with the same tax, rule and rate share one row, taxed on the row's base once", () => {
    const inv = es([
      line("1", "0.125", iva("general")), // 0.125 → 0.13
      line("2", "50", iva("reduced")),
      line("1", "0.125", iva("general")),
    ]);
    expect(inv.lines.map((l) => l.amount)).toEqual([13n, 10000n, 13n]);
    // 21 % of 0.26 = 0.0546 → 0.05 (per line it would be 0.03 + 0.03).
    expect(inv.tax_breakdown.map((r) => [r.rule, r.rate, r.base, r.amount])).toEqual([
      ["general", "21%", 26n, 5n],
      ["reduced", "10%", 10000n, 1000n],
    ]);
    expect(totalsOf(inv)).toEqual({
      subtotal: 10026n,
      total_tax_added: 1005n,
      total_tax_withheld: 0n,
      total: 11031n,
      amount_payable: 11031n,
    });
  });

  it("exempt, reverse_charge and not_subject rows have a base, a null rate and a null amount", () => {
    const inv = es([
      line("1", "500", iva("exempt_art_20")),
      line("1", "100", iva("general")),
      line("1", "200", iva("reverse_charge")),
      line("1", "300", iva("not_subject_location")),
      line("1", "50", iva("exempt_art_20")),
    ]);
    expect(
      inv.tax_breakdown.map((r) => [r.rule, r.treatment, r.rate, r.authority_code, r.base, r.amount]),
    ).toEqual([
      ["exempt_art_20", "exempt", null, "E1", 55000n, null],
      ["general", "taxable", "21%", "S1", 10000n, 2100n],
      ["reverse_charge", "reverse_charge", null, "S2", 20000n, null],
      ["not_subject_location", "not_subject", null, "N2", 30000n, null],
    ]);
    expect(inv.tax_breakdown[0]).toMatchObject({
      description: "IVA exempt (art. 20 Ley 37/1992)",
      legal_reference: "Ley 37/1992, art. 20",
    });
    expect(totalsOf(inv)).toEqual({
      subtotal: 115000n,
      total_tax_added: 2100n,
      total_tax_withheld: 0n,
      total: 117100n,
      amount_payable: 117100n,
    });
  });
});

describe("computeInvoice: resolution dates", () => {
  it("applies the rate in force on the date: IVA general 18 % on 2012-08-31, 21 % on 2012-09-01", () => {
    const before = es([line("1", "100", iva("general"))], "2012-08-31");
    const after = es([line("1", "100", iva("general"))], "2012-09-01");
    expect(before.tax_breakdown[0]).toMatchObject({
      rate: "18%",
      amount: 1800n,
      legal_reference: "Ley 37/1992, art. 90; Ley 26/2009",
    });
    expect(after.tax_breakdown[0]).toMatchObject({ rate: "21%", amount: 2100n });
    expect([before.total, after.total]).toEqual([11800n, 12100n]);
  });

  it("irpf resolves on the withholding date while iva and recargo resolve on the supply date", () => {
    const taxes = [iva("general"), irpf("professional"), re("general")];
    const a = es([line("1", "1000", ...taxes)], "2012-08-31", "2012-09-01");
    expect(a.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["iva", "18%", 18000n],
      ["irpf", "21%", 21000n],
      ["recargo_equivalencia", "4%", 4000n],
    ]);
    const b = es([line("1", "1000", ...taxes)], "2012-09-01", "2012-08-31");
    expect(b.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["iva", "21%", 21000n],
      ["irpf", "15%", 15000n],
      ["recargo_equivalencia", "5.2%", 5200n],
    ]);
    expect(totalsOf(b)).toEqual({
      subtotal: 100000n,
      total_tax_added: 26200n,
      total_tax_withheld: 15000n,
      total: 126200n,
      amount_payable: 111200n,
    });
  });

  it("a rule not in force on its own date is rejected on that tax's rule", () => {
    // irpf capital starts 2015-01-01: fine on the supply date, not on the withholding date.
    const [param, message] = rejected(() =>
      es([line("1", "1", iva("general"), irpf("capital"))], "2015-06-01", "2014-12-31"),
    );
    expect(param).toBe("lines.0.taxes.1.rule");
    expect(message).toBe(
      "Rule 'capital' of tax 'irpf' in regime 'es' is not in force on 2014-12-31 (in force from 2015-01-01).",
    );
    expect(es([line("1", "1", iva("general"), irpf("capital"))], "2014-12-31", "2015-06-01").total).toBe(
      121n,
    );
  });
});

describe("computeInvoice: recargo de equivalencia", () => {
  it("is added on top of IVA at the rate of the same rule", () => {
    const inv = es([line("1", "100", iva("general"), re("general"))]);
    expect(inv.lines[0]!.taxes[1]).toEqual({
      tax: "recargo_equivalencia",
      rule: "general",
      name: "Recargo de equivalencia",
      treatment: "taxable",
      effect: "added",
      rate: "5.2%",
      authority_code: null,
    });
    expect(totalsOf(inv)).toMatchObject({ total_tax_added: 2620n, total: 12620n });
  });

  it("may come before the iva entry, and rounds a 0.62 % rate half away from zero", () => {
    // Biomass 2023: IVA 5 %, recargo 0.62 %; on 25.00, 1.25 and 0.155 → 0.16.
    const inv = es([line("1", "25.00", re("biomass_temporary"), iva("biomass_temporary"))], "2023-06-01");
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["recargo_equivalencia", "0.62%", 16n],
      ["iva", "5%", 125n],
    ]);
  });

  it("a recargo_equivalencia rule must be the same rule as the line's iva rule", () => {
    const [param, message] = rejected(() => es([line("1", "1", iva("reduced"), re("general"))]));
    expect(param).toBe("lines.0.taxes.1.rule");
    expect(message).toBe(
      "The recargo_equivalencia rule must be the same rule as the line's iva rule ('reduced').",
    );
    expect(rejected(() => es([line("1", "1", re("general"), iva("reduced"))]))[0]).toBe(
      "lines.0.taxes.0.rule",
    );
  });

  it("recargo_equivalencia needs a taxable iva rule", () => {
    const [param, message] = rejected(() => es([line("1", "1", iva("exempt_art_20"), re("exempt_art_20"))]));
    expect(param).toBe("lines.0.taxes.1.rule");
    expect(message).toBe(
      "recargo_equivalencia applies only with a taxable iva rule; the line's iva rule 'exempt_art_20' is exempt.",
    );
  });

  it("a recargo rule paired correctly but not in force on the supply date is rejected on its rule", () => {
    // IVA general existed in 2010-06 (16 %); the documented recargo general starts 2010-07-01.
    const [param, message] = rejected(() =>
      es([line("1", "1", iva("general"), re("general"))], "2010-06-30"),
    );
    expect(param).toBe("lines.0.taxes.1.rule");
    expect(message).toMatch(
      /^Rule 'general' of tax 'recargo_equivalencia' in regime 'es' is not in force on 2010-06-30/,
    );
  });
});

describe("computeInvoice: custom taxes (regime global)", () => {
  it("custom taxes are taxable, added or withheld, with null catalog fields", () => {
    const inv = global([
      line("2", "49.99", custom("GST", "10%"), custom("WHT", "7.5%", "withheld")),
      line("1", "0.02", custom("GST", "10.0%")),
    ]);
    expect(inv.lines[0]!.taxes).toEqual([
      {
        tax: null,
        rule: null,
        name: "GST",
        treatment: "taxable",
        effect: "added",
        rate: "10%",
        authority_code: null,
      },
      {
        tax: null,
        rule: null,
        name: "WHT",
        treatment: "taxable",
        effect: "withheld",
        rate: "7.5%",
        authority_code: null,
      },
    ]);
    // "10.0%" is the same rate as "10%": one GST row, base 99.96 + 0.02.
    expect(inv.tax_breakdown).toEqual([
      {
        tax: null,
        rule: null,
        name: "GST",
        description: "GST",
        treatment: "taxable",
        effect: "added",
        rate: "10%",
        authority_code: null,
        legal_reference: null,
        base: 10000n,
        amount: 1000n,
      },
      {
        tax: null,
        rule: null,
        name: "WHT",
        description: "WHT",
        treatment: "taxable",
        effect: "withheld",
        rate: "7.5%",
        authority_code: null,
        legal_reference: null,
        base: 9998n,
        amount: 750n, // 749.85
      },
    ]);
    expect(totalsOf(inv)).toEqual({
      subtotal: 10000n,
      total_tax_added: 1000n,
      total_tax_withheld: 750n,
      total: 11000n,
      amount_payable: 10250n,
    });
  });

  it("rows are per (name, rate, effect): the same name at another rate or effect is another row", () => {
    const inv = global([
      line("1", "100", custom("Tax", "10%")),
      line("1", "100", custom("Tax", "5%")),
      line("1", "100", custom("Tax", "10%", "withheld")),
      line("1", "100", custom("tax", "10%")),
    ]);
    expect(inv.tax_breakdown.map((r) => [r.name, r.rate, r.effect, r.amount])).toEqual([
      ["Tax", "10%", "added", 1000n],
      ["Tax", "5%", "added", 500n],
      ["Tax", "10%", "withheld", 1000n],
      ["tax", "10%", "added", 1000n],
    ]);
  });

  it("a line takes 0 to 10 custom taxes", () => {
    const ten = Array.from({ length: 10 }, (_, k) => custom(`T${k}`, "1%"));
    expect(global([line("1", "100")]).tax_breakdown).toEqual([]);
    expect(global([line("1", "100", ...ten)]).total_tax_added).toBe(1000n);
    const [param, message] = rejected(() =>
      global([line("1", "1"), line("1", "1", ...ten, custom("X", "1%"))]),
    );
    expect(param).toBe("lines.1.taxes");
    expect(message).toBe("Line 1 has 11 taxes: at most 10.");
  });

  it("a custom tax appears at most once per line: the same name, rate and effect twice is rejected on the repeat", () => {
    const [param, message] = rejected(() =>
      global([line("1", "100", custom("GST", "10%"), custom("PST", "7%"), custom("GST", "10.00%"))]),
    );
    expect(param).toBe("lines.0.taxes.2");
    expect(message).toBe("Tax 'GST' 10% added appears more than once on line 0: at most one entry per tax.");
    // Distinct rows are not repeats: another rate, another effect, another name.
    const ok = global([
      line(
        "1",
        "100",
        custom("GST", "10%"),
        custom("GST", "5%"),
        custom("GST", "10%", "withheld"),
        custom("gst", "10%"),
      ),
    ]);
    expect(ok.tax_breakdown.map((r) => [r.name, r.base])).toEqual([
      ["GST", 10000n],
      ["GST", 10000n],
      ["GST", 10000n],
      ["gst", 10000n],
    ]);
  });

  it("a custom rate outside 0%–100% is rejected on its rate", () => {
    const [param, message] = rejected(() => global([line("1", "1", custom("GST", "101%"))]));
    expect(param).toBe("lines.0.taxes.0.rate");
    expect(message).toBe("Invalid lines.0.taxes.0.rate: must be between 0% and 100%.");
  });

  it("tax regime 'global' has no structured taxes", () => {
    const [param, message] = rejected(() => global([line("1", "1", custom("GST", "10%"), iva("general"))]));
    expect(param).toBe("lines.0.taxes.1");
    expect(message).toBe(
      "Tax regime 'global' has no structured taxes (so no tax 'iva'); supply custom taxes at issuance.",
    );
  });
});

describe("computeInvoice: es tax entries", () => {
  it("every es line has exactly one iva entry", () => {
    const missing = rejected(() =>
      es([line("1", "1", iva("general")), line("1", "1", irpf("professional"))]),
    );
    expect(missing).toEqual([
      "lines.1.taxes",
      `Line 1 has no 'iva' entry: every 'es' line needs exactly one, e.g. {"tax": "iva", "rule": "general"}.`,
    ]);
    expect(rejected(() => es([line("1", "1")]))[0]).toBe("lines.0.taxes");
  });

  it("a tax appears at most once per line", () => {
    const [param, message] = rejected(() =>
      es([line("1", "1", iva("general"), irpf("professional"), iva("reduced"))]),
    );
    expect(param).toBe("lines.0.taxes.2.tax");
    expect(message).toBe("Tax 'iva' appears more than once on line 0: at most one entry per tax.");
    expect(rejected(() => es([line("1", "1", iva("general"), re("general"), re("general"))]))[0]).toBe(
      "lines.0.taxes.2.tax",
    );
  });

  it("an unknown tax is rejected on its tax, with the resolver's message", () => {
    const [param, message] = rejected(() =>
      es([line("1", "1", iva("general"), { tax: "vat", rule: "general" })]),
    );
    expect(param).toBe("lines.0.taxes.1.tax");
    expect(message).toBe(
      "Unknown tax 'vat' in regime 'es'. Known taxes: 'iva', 'irpf', 'recargo_equivalencia'.",
    );
  });

  it("an unknown rule is rejected on its rule, with the resolver's message", () => {
    const [param, message] = rejected(() => es([line("1", "1", iva("standard"))]));
    expect(param).toBe("lines.0.taxes.0.rule");
    expect(message).toMatch(
      /^Unknown rule 'standard' for tax 'iva' in regime 'es'\. Known rules: 'general', /,
    );
  });

  it("a rule not in force on the supply date is rejected on its rule", () => {
    const [param, message] = rejected(() => es([line("1", "1", iva("food_basic_temporary"))], "2026-11-23"));
    expect(param).toBe("lines.0.taxes.0.rule");
    expect(message).toBe(
      "Rule 'food_basic_temporary' of tax 'iva' in regime 'es' is not in force on 2026-11-23 (in force 2023-01-01 → 2024-12-31).",
    );
  });

  it("a custom tax on an es line is rejected on the entry", () => {
    const [param, message] = rejected(() => es([line("1", "1", iva("general"), custom("GST", "10%"))]));
    expect(param).toBe("lines.0.taxes.1");
    expect(message).toBe(
      `Tax regime 'es' takes catalog taxes such as {"tax": "iva", "rule": "general"}, not custom taxes.`,
    );
  });

  it("an invalid tax date is the caller's bug (a plain Error, so a 500), not a 400", () => {
    const input: ComputeInput = {
      regime: "es",
      exponent: 2,
      lines: [line("1", "1", iva("general"))],
      taxDates: { supply: "2026-02-30", withholding: "2026-02-01" },
    };
    expect(() => computeInvoice(input)).toThrow(Error);
    expect(() => computeInvoice(input)).not.toThrow(ApiError);
  });
});

describe("computeInvoice: quantity and unit_price", () => {
  it("re-checks quantity and unit_price, naming the field", () => {
    expect(rejected(() => global([line("0", "1")]))).toEqual([
      "lines.0.quantity",
      "Invalid lines.0.quantity: must be greater than 0.",
    ]);
    expect(rejected(() => global([line("1", "1"), line("1", "1.1234567")]))).toEqual([
      "lines.1.unit_price",
      "Invalid lines.1.unit_price: must have at most 6 decimals.",
    ]);
    expect(rejected(() => global([line("1", "1e3")]))[0]).toBe("lines.0.unit_price");
  });
});

describe("computeInvoice: the ±10^15 bound", () => {
  it("a line amount of exactly ±10^15 minor units is accepted, one more is rejected on unit_price", () => {
    // 10 × 1,000,000,000,000 = 10^13 EUR = 10^15 cents.
    expect(global([line("10", "1000000000000")]).subtotal).toBe(10n ** 15n);
    expect(global([line("10", "-1000000000000")]).subtotal).toBe(-(10n ** 15n));
    // 1000 × 10^12 = 10^15 yen (exponent 0).
    expect(global([line("1000", "1000000000000")], 0).subtotal).toBe(10n ** 15n);
    const [param, message] = rejected(() => global([line("1", "1"), line("10.000001", "1000000000000")]));
    expect(param).toBe("lines.1.unit_price");
    expect(message).toBe(
      "Line 1's amount (quantity × unit_price = 10000001000000.00) must be within ±10000000000000.00.",
    );
    expect(rejected(() => global([line("1000000000", "-1000000000000")]))[0]).toBe("lines.0.unit_price");
  });

  it("a total beyond ±10^15 minor units is rejected on lines", () => {
    const [param, message] = rejected(() => es([line("10", "1000000000000", iva("general"))]));
    expect(param).toBe("lines");
    // Base 10^13 EUR and IVA 2.1 × 10^12 are within the bound; the total 1.21 × 10^13 is not.
    expect(message).toBe(
      "The invoice is too large: the total (12100000000000.00) must be within ±10000000000000.00.",
    );
    const subtotal = rejected(() => global([line("10", "1000000000000"), line("0.000001", "1000000")]));
    expect(subtotal).toEqual([
      "lines",
      "The invoice is too large: the subtotal (10000000000001.00) must be within ±10000000000000.00.",
    ]);
  });

  it("a tax row base beyond the bound is rejected even when the subtotal is within it", () => {
    const max = "1000000000000";
    const [param, message] = rejected(() =>
      es([
        line("10", max, iva("general")),
        line("10", max, iva("general")),
        line("10", `-${max}`, iva("exempt_art_20")),
        line("10", `-${max}`, iva("exempt_art_20")),
      ]),
    );
    expect(param).toBe("lines");
    expect(message).toBe(
      "The invoice is too large: the base of the iva/general row (20000000000000.00) must be within ±10000000000000.00.",
    );
  });
});
