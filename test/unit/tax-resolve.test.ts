import { describe, expect, it } from "vitest";
import { isIsoDate, nextDay } from "../../src/lib/dates";
import { CATALOG } from "../../src/tax/catalog";
import { resolveRule } from "../../src/tax/resolve";
import type { RuleVersion } from "../../src/tax/types";

function rateOn(tax: string, rule: string, date: string): string | null | undefined {
  const r = resolveRule("es", tax, rule, date);
  return r.ok ? r.version.rate : undefined;
}

function reasonOn(regime: string, tax: string, rule: string, date: string): string {
  const r = resolveRule(regime, tax, rule, date);
  return r.ok ? "ok" : r.reason;
}

function previousDay(date: string): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

// [tax, rule, date, rate]; each line is a concrete fact of domain.md §3.
type Case = [string, string, string, string];

describe("resolveRule: permanent rates on their boundary dates", () => {
  it.each<Case>([
    ["iva", "general", "1993-01-01", "15%"],
    ["iva", "general", "1994-12-31", "15%"],
    ["iva", "general", "1995-01-01", "16%"],
    ["iva", "general", "2010-06-30", "16%"],
    ["iva", "general", "2010-07-01", "18%"],
    ["iva", "general", "2012-08-31", "18%"],
    ["iva", "general", "2012-09-01", "21%"],
    ["iva", "general", "2025-06-15", "21%"],
    ["iva", "reduced", "1994-12-31", "6%"],
    ["iva", "reduced", "1995-01-01", "7%"],
    ["iva", "reduced", "2010-06-30", "7%"],
    ["iva", "reduced", "2010-07-01", "8%"],
    ["iva", "reduced", "2012-08-31", "8%"],
    ["iva", "reduced", "2012-09-01", "10%"],
    ["iva", "super_reduced", "1994-12-31", "3%"],
    ["iva", "super_reduced", "1995-01-01", "4%"],
    ["iva", "super_reduced", "2012-09-01", "4%"],
    ["recargo_equivalencia", "general", "2010-07-01", "4%"],
    ["recargo_equivalencia", "general", "2012-08-31", "4%"],
    ["recargo_equivalencia", "general", "2012-09-01", "5.2%"],
    ["recargo_equivalencia", "reduced", "2012-08-31", "1%"],
    ["recargo_equivalencia", "reduced", "2012-09-01", "1.4%"],
    ["recargo_equivalencia", "super_reduced", "1995-01-01", "0.5%"],
    ["recargo_equivalencia", "super_reduced", "2025-01-01", "0.5%"],
  ])("%s/%s on %s is %s", (tax, rule, date, rate) => {
    expect(rateOn(tax, rule, date)).toBe(rate);
  });

  it.each<Case>([
    ["irpf", "professional", "2007-01-01", "15%"],
    ["irpf", "professional", "2012-08-31", "15%"],
    ["irpf", "professional", "2012-09-01", "21%"],
    ["irpf", "professional", "2014-12-31", "21%"],
    ["irpf", "professional", "2015-01-01", "19%"],
    ["irpf", "professional", "2015-07-11", "19%"],
    ["irpf", "professional", "2015-07-12", "15%"],
    ["irpf", "professional_low_income", "2015-01-01", "15%"],
    ["irpf", "professional_low_income", "2015-07-11", "15%"],
    ["irpf", "professional_new", "2012-08-31", "7%"],
    ["irpf", "professional_new", "2012-09-01", "9%"],
    ["irpf", "professional_new", "2015-07-11", "9%"],
    ["irpf", "professional_new", "2015-07-12", "7%"],
    ["irpf", "courses_conferences_works", "2015-07-12", "15%"],
    ["irpf", "capital", "2015-01-01", "20%"],
    ["irpf", "capital", "2015-07-11", "20%"],
    ["irpf", "capital", "2015-07-12", "19.5%"],
    ["irpf", "capital", "2015-12-31", "19.5%"],
    ["irpf", "capital", "2016-01-01", "19%"],
    ["irpf", "rental", "2015-07-11", "20%"],
    ["irpf", "rental", "2015-07-12", "19.5%"],
    ["irpf", "rental", "2016-01-01", "19%"],
    ["irpf", "image_rights", "2015-01-01", "24%"],
    ["irpf", "modules", "2007-01-01", "1%"],
  ])("%s/%s on %s is %s", (tax, rule, date, rate) => {
    expect(rateOn(tax, rule, date)).toBe(rate);
  });

  it("is not in force before the first documented version", () => {
    expect(reasonOn("es", "iva", "general", "1992-12-31")).toBe("not_in_force");
    expect(reasonOn("es", "irpf", "professional", "2006-12-31")).toBe("not_in_force");
    expect(reasonOn("es", "irpf", "capital", "2014-12-31")).toBe("not_in_force");
    expect(reasonOn("es", "irpf", "courses_conferences_works", "2015-07-11")).toBe("not_in_force");
    expect(reasonOn("es", "recargo_equivalencia", "general", "2010-06-30")).toBe("not_in_force");
  });

  it("applies the low-income professional rate only from 2014-07-05 to 2015-07-11", () => {
    expect(reasonOn("es", "irpf", "professional_low_income", "2014-07-04")).toBe("not_in_force");
    expect(reasonOn("es", "irpf", "professional_low_income", "2015-07-12")).toBe("not_in_force");
  });
});

describe("resolveRule: temporary rates", () => {
  it.each<Case>([
    ["iva", "food_basic_temporary", "2023-01-01", "0%"],
    ["iva", "food_basic_temporary", "2024-09-30", "0%"],
    ["iva", "food_basic_temporary", "2024-10-01", "2%"],
    ["iva", "food_basic_temporary", "2024-12-31", "2%"],
    ["iva", "olive_oil_temporary", "2023-01-01", "5%"],
    ["iva", "olive_oil_temporary", "2024-06-30", "5%"],
    ["iva", "olive_oil_temporary", "2024-07-01", "0%"],
    ["iva", "olive_oil_temporary", "2024-09-30", "0%"],
    ["iva", "olive_oil_temporary", "2024-10-01", "2%"],
    ["iva", "olive_oil_temporary", "2024-12-31", "2%"],
    ["iva", "seed_oil_pasta_temporary", "2023-01-01", "5%"],
    ["iva", "seed_oil_pasta_temporary", "2024-09-30", "5%"],
    ["iva", "seed_oil_pasta_temporary", "2024-10-01", "7.5%"],
    ["iva", "seed_oil_pasta_temporary", "2024-12-31", "7.5%"],
    ["iva", "electricity_temporary", "2021-06-26", "10%"],
    ["iva", "electricity_temporary", "2022-06-30", "10%"],
    ["iva", "electricity_temporary", "2022-07-01", "5%"],
    ["iva", "electricity_temporary", "2023-12-31", "5%"],
    ["iva", "electricity_temporary", "2024-01-01", "10%"],
    ["iva", "electricity_temporary", "2024-12-31", "10%"],
    ["iva", "natural_gas_temporary", "2022-10-01", "5%"],
    ["iva", "natural_gas_temporary", "2023-12-31", "5%"],
    ["iva", "natural_gas_temporary", "2024-01-01", "10%"],
    ["iva", "natural_gas_temporary", "2024-03-31", "10%"],
    ["iva", "biomass_temporary", "2022-10-01", "5%"],
    ["iva", "biomass_temporary", "2024-01-01", "10%"],
    ["iva", "biomass_temporary", "2024-06-30", "10%"],
    ["recargo_equivalencia", "food_basic_temporary", "2024-09-30", "0%"],
    ["recargo_equivalencia", "food_basic_temporary", "2024-10-01", "0.26%"],
    ["recargo_equivalencia", "olive_oil_temporary", "2024-06-30", "0.62%"],
    ["recargo_equivalencia", "olive_oil_temporary", "2024-07-01", "0%"],
    ["recargo_equivalencia", "olive_oil_temporary", "2024-10-01", "0.26%"],
    ["recargo_equivalencia", "seed_oil_pasta_temporary", "2024-09-30", "0.62%"],
    ["recargo_equivalencia", "seed_oil_pasta_temporary", "2024-12-31", "1%"],
    ["recargo_equivalencia", "biomass_temporary", "2023-12-31", "0.62%"],
    ["recargo_equivalencia", "biomass_temporary", "2024-06-30", "1.4%"],
  ])("%s/%s on %s is %s", (tax, rule, date, rate) => {
    expect(rateOn(tax, rule, date)).toBe(rate);
  });

  it("applies every temporary rate on its first and last day, and the rule not a day before or after", () => {
    const checked: string[] = [];
    for (const tax of CATALOG.es.taxes) {
      const byRule = new Map<string, RuleVersion[]>();
      for (const v of tax.rules) {
        if (v.rule.endsWith("_temporary")) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
      }
      for (const [rule, versions] of byRule) {
        for (const v of versions) {
          for (const day of [v.effective_from, v.effective_until!]) {
            const r = resolveRule("es", tax.tax, rule, day);
            expect(r.ok && r.version, `${tax.tax}/${rule} on ${day}`).toBe(v);
          }
        }
        const before = previousDay(versions[0]!.effective_from);
        const after = nextDay(versions.at(-1)!.effective_until!);
        expect(reasonOn("es", tax.tax, rule, before), `${tax.tax}/${rule} on ${before}`).toBe("not_in_force");
        expect(reasonOn("es", tax.tax, rule, after), `${tax.tax}/${rule} on ${after}`).toBe("not_in_force");
        checked.push(`${tax.tax}/${rule}`);
      }
    }
    expect(checked).toEqual([
      "iva/food_basic_temporary",
      "iva/olive_oil_temporary",
      "iva/seed_oil_pasta_temporary",
      "iva/electricity_temporary",
      "iva/natural_gas_temporary",
      "iva/biomass_temporary",
      "recargo_equivalencia/food_basic_temporary",
      "recargo_equivalencia/olive_oil_temporary",
      "recargo_equivalencia/seed_oil_pasta_temporary",
      "recargo_equivalencia/biomass_temporary",
    ]);
  });

  it("leaves the goods to the permanent rules once the temporary rates end on 2024-12-31", () => {
    expect(reasonOn("es", "iva", "food_basic_temporary", "2025-01-01")).toBe("not_in_force");
    expect(reasonOn("es", "iva", "olive_oil_temporary", "2025-01-01")).toBe("not_in_force");
    expect(rateOn("iva", "super_reduced", "2025-01-01")).toBe("4%");
    expect(rateOn("iva", "reduced", "2025-01-01")).toBe("10%");
    expect(rateOn("recargo_equivalencia", "super_reduced", "2025-01-01")).toBe("0.5%");
    expect(rateOn("recargo_equivalencia", "reduced", "2025-01-01")).toBe("1.4%");
  });
});

describe("resolveRule: catalog corrections (issue item 5)", () => {
  const versionOn = (tax: string, rule: string, date: string) => {
    const r = resolveRule("es", tax, rule, date);
    if (!r.ok) throw new Error(`${tax}/${rule} on ${date}: ${r.message}`);
    return r.version;
  };

  it("IRPF professional_low_income 15 % applies from 2014-07-05 (RDL 8/2014)", () => {
    expect(reasonOn("es", "irpf", "professional_low_income", "2014-07-04")).toBe("not_in_force");
    for (const day of ["2014-07-05", "2014-12-31", "2015-01-01", "2015-07-11"]) {
      expect(rateOn("irpf", "professional_low_income", day), day).toBe("15%");
    }
    expect(versionOn("irpf", "professional_low_income", "2014-07-05").legal_reference).toContain(
      "RDL 8/2014",
    );
    // From 2015-07-12 the general professional rate is 15 % itself.
    expect(reasonOn("es", "irpf", "professional_low_income", "2015-07-12")).toBe("not_in_force");
  });

  it("there is no natural-gas recargo rule", () => {
    expect(reasonOn("es", "recargo_equivalencia", "natural_gas_temporary", "2023-06-01")).toBe(
      "unknown_rule",
    );
    // The IVA rate on natural gas stays.
    expect(rateOn("iva", "natural_gas_temporary", "2023-06-01")).toBe("5%");
  });

  it("biomass recargo: 0.62 % in 2023, 1.4 % from 2024-01-01 to 2024-06-30", () => {
    expect(reasonOn("es", "recargo_equivalencia", "biomass_temporary", "2022-12-31")).toBe("not_in_force");
    expect(rateOn("recargo_equivalencia", "biomass_temporary", "2023-01-01")).toBe("0.62%");
    expect(rateOn("recargo_equivalencia", "biomass_temporary", "2023-12-31")).toBe("0.62%");
    expect(rateOn("recargo_equivalencia", "biomass_temporary", "2024-01-01")).toBe("1.4%");
    expect(rateOn("recargo_equivalencia", "biomass_temporary", "2024-06-30")).toBe("1.4%");
    expect(reasonOn("es", "recargo_equivalencia", "biomass_temporary", "2024-07-01")).toBe("not_in_force");
    expect(versionOn("recargo_equivalencia", "biomass_temporary", "2023-06-01").legal_reference).toContain(
      "RDL 20/2022",
    );
    expect(versionOn("recargo_equivalencia", "biomass_temporary", "2024-03-01").legal_reference).toContain(
      "RDL 8/2023",
    );
  });

  it("tobacco recargo 1.75 %", () => {
    for (const day of ["2012-09-01", "2024-05-01", "2026-11-23"]) {
      expect(rateOn("recargo_equivalencia", "tobacco", day), day).toBe("1.75%");
      // Its IVA twin (same rule id, as issuance requires) is the general rate.
      expect(rateOn("iva", "tobacco", day), day).toBe(rateOn("iva", "general", day));
    }
    expect(versionOn("recargo_equivalencia", "tobacco", "2024-05-01").legal_reference).toContain(
      "Ley 37/1992, art. 161",
    );
  });

  it("IRPF agriculture 2 % and pig fattening/poultry 1 %", () => {
    expect(rateOn("irpf", "agriculture_livestock", "2024-05-01")).toBe("2%");
    expect(rateOn("irpf", "pig_fattening_poultry", "2024-05-01")).toBe("1%");
    for (const rule of ["agriculture_livestock", "pig_fattening_poultry"]) {
      expect(versionOn("irpf", rule, "2024-05-01").legal_reference, rule).toContain("RD 439/2007, art. 95.4");
    }
  });

  it("domestic reverse charge (S2) is distinct from EU services (N2)", () => {
    const domestic = versionOn("iva", "reverse_charge", "2024-05-01");
    const eu = versionOn("iva", "reverse_charge_eu", "2024-05-01");
    expect([domestic.treatment, domestic.rate, domestic.authority_code]).toEqual([
      "reverse_charge",
      null,
      "S2",
    ]);
    expect(domestic.legal_reference).toBe("Ley 37/1992, art. 84.Uno.2º");
    expect([eu.treatment, eu.rate, eu.authority_code]).toEqual(["reverse_charge", null, "N2"]);
    expect(eu.legal_reference).toMatch(/^Ley 37\/1992, art\. 69/);
  });
});

describe("resolveRule: results", () => {
  it("returns the catalog's version and its tax, with the tax's effect", () => {
    const r = resolveRule("es", "irpf", "professional", "2020-05-05");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tax.tax).toBe("irpf");
    expect(r.tax.effect).toBe("withheld");
    expect(r.version).toEqual({
      rule: "professional",
      description: "IRPF withholding, professional activities",
      treatment: "taxable",
      rate: "15%",
      authority_code: null,
      legal_reference: "Ley 35/2006, art. 101; RDL 9/2015",
      effective_from: "2015-07-12",
      effective_until: null,
    });
    expect(CATALOG.es.taxes.find((t) => t.tax === "irpf")!.rules).toContain(r.version);
  });

  it("resolves non-taxable IVA rules with a null rate and their authority code", () => {
    for (const [rule, code] of [
      ["exempt_art_20", "E1"],
      ["exempt_art_25", "E5"],
      ["reverse_charge_eu", "N2"],
      ["reverse_charge", "S2"],
      ["not_subject_location", "N2"],
    ]) {
      const r = resolveRule("es", "iva", rule!, "2024-02-29");
      expect(r.ok && [r.version.rate, r.version.authority_code], rule).toEqual([null, code]);
    }
  });
});

describe("resolveRule: errors", () => {
  it("rejects an unknown regime, matching ids exactly and ignoring Object's own keys", () => {
    for (const regime of ["fr", "ES", "", "__proto__", "toString", "constructor"]) {
      expect(reasonOn(regime, "iva", "general", "2024-01-01"), regime).toBe("unknown_regime");
    }
    const r = resolveRule("fr", "iva", "general", "2024-01-01");
    expect(r.ok || r.message).toBe("Unknown tax regime 'fr'. Known regimes: 'global', 'es'.");
  });

  it("rejects an unknown tax, and says global takes custom taxes", () => {
    for (const tax of ["vat", "IVA", "", "igic"]) {
      expect(reasonOn("es", tax, "general", "2024-01-01"), tax).toBe("unknown_tax");
    }
    const es = resolveRule("es", "vat", "general", "2024-01-01");
    expect(es.ok || es.message).toBe(
      "Unknown tax 'vat' in regime 'es'. Known taxes: 'iva', 'irpf', 'recargo_equivalencia'.",
    );
    const global = resolveRule("global", "iva", "general", "2024-01-01");
    expect(global.ok || global.reason).toBe("unknown_tax");
    expect(global.ok || global.message).toBe(
      "Tax regime 'global' has no structured taxes (so no tax 'iva'); supply custom taxes at issuance.",
    );
  });

  it("rejects an unknown rule, matching rule ids exactly", () => {
    for (const rule of ["standard", "General", "gen", "general ", "food_basic", ""]) {
      expect(reasonOn("es", "iva", rule, "2024-01-01"), rule).toBe("unknown_rule");
    }
    // A rule of another tax is unknown here.
    expect(reasonOn("es", "irpf", "general", "2024-01-01")).toBe("unknown_rule");
    const r = resolveRule("es", "irpf", "pro", "2024-01-01");
    expect(r.ok || r.message).toMatch(
      /^Unknown rule 'pro' for tax 'irpf' in regime 'es'\. Known rules: 'professional', /,
    );
  });

  it("rejects a date that is not a YYYY-MM-DD calendar date", () => {
    for (const date of [
      "2023-02-29",
      "2024-02-30",
      "2024-04-31",
      "2024-13-01",
      "2024-00-10",
      "2024-01-00",
      "2024-1-01",
      "20240101",
      "2024-01-01T00:00:00Z",
      " 2024-01-01",
      "",
    ]) {
      expect(reasonOn("es", "iva", "general", date), JSON.stringify(date)).toBe("invalid_date");
    }
    const r = resolveRule("es", "iva", "general", "2023-02-29");
    expect(r.ok || r.message).toBe(
      "Invalid date '2023-02-29': expected a calendar date in the format YYYY-MM-DD.",
    );
    expect(rateOn("iva", "general", "2024-02-29")).toBe("21%");
  });

  it("says when a rule is not in force on the date, and when it is", () => {
    const after = resolveRule("es", "iva", "food_basic_temporary", "2025-03-01");
    expect(after.ok || after.reason).toBe("not_in_force");
    expect(after.ok || after.message).toBe(
      "Rule 'food_basic_temporary' of tax 'iva' in regime 'es' is not in force on 2025-03-01 (in force 2023-01-01 → 2024-12-31).",
    );
    const before = resolveRule("es", "iva", "general", "1992-12-31");
    expect(before.ok || before.message).toBe(
      "Rule 'general' of tax 'iva' in regime 'es' is not in force on 1992-12-31 (in force from 1993-01-01).",
    );
  });

  it("checks regime, then tax, then rule, then date", () => {
    expect(reasonOn("fr", "vat", "x", "bad")).toBe("unknown_regime");
    expect(reasonOn("es", "vat", "x", "bad")).toBe("unknown_tax");
    expect(reasonOn("es", "iva", "x", "bad")).toBe("unknown_rule");
    expect(reasonOn("es", "iva", "general", "bad")).toBe("invalid_date");
  });

  it("cuts very long input short in messages", () => {
    const long = "x".repeat(5000);
    const r = resolveRule("es", long, "general", "2024-01-01");
    expect(r.ok || r.message.length).toBeLessThan(200);
  });
});

describe("date helpers", () => {
  it("accepts real calendar dates only, leap years included", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2000-02-29")).toBe(true);
    expect(isIsoDate("1900-02-29")).toBe(false);
    expect(isIsoDate("2024-12-31")).toBe(true);
    expect(isIsoDate("2024-12-32")).toBe(false);
  });

  it("steps to the next day across month and year ends", () => {
    expect(nextDay("2012-08-31")).toBe("2012-09-01");
    expect(nextDay("2015-07-11")).toBe("2015-07-12");
    expect(nextDay("2024-02-28")).toBe("2024-02-29");
    expect(nextDay("2024-12-31")).toBe("2025-01-01");
  });
});
