import { describe, expect, it } from "vitest";
import * as z from "zod";
import { TAX_EFFECTS, TAX_REGIME_IDS, TAX_TREATMENTS } from "../../src/constants";
import { isIsoDate, nextDay } from "../../src/lib/dates";
import { CATALOG, isTaxRegimeId, TAX_REGIMES } from "../../src/tax/catalog";
import { resolveRule } from "../../src/tax/resolve";
import type { RuleVersion, Tax, TaxRegime } from "../../src/tax/types";

/** The seed's rule-version fields, in the seed's order. */
const SEED_RULE_FIELDS = [
  "rule",
  "description",
  "treatment",
  "rate",
  "authority_code",
  "legal_reference",
  "effective_from",
  "effective_until",
];

const isoDate = z.string().refine(isIsoDate, "must be a YYYY-MM-DD calendar date");
const ruleVersionSchema = z.strictObject({
  rule: z.string().min(1),
  description: z.string().min(1),
  treatment: z.enum(TAX_TREATMENTS),
  rate: z.string().nullable(),
  authority_code: z.string().min(1).nullable(),
  legal_reference: z.string().min(1).nullable(),
  effective_from: isoDate,
  effective_until: isoDate.nullable(),
});
const taxSchema = z.strictObject({
  tax: z.string().min(1),
  name: z.string().min(1),
  effect: z.enum(TAX_EFFECTS),
  rules: z.array(z.unknown()).min(1),
});
const regimeSchema = z.strictObject({
  id: z.enum(TAX_REGIME_IDS),
  object: z.literal("tax_regime"),
  taxes: z.array(z.unknown()),
});

const taxesOf = (regime: TaxRegime) => regime.taxes.map((tax) => ({ regime, tax }));
const ALL_TAXES = TAX_REGIMES.flatMap(taxesOf);
const ALL_VERSIONS = ALL_TAXES.flatMap(({ regime, tax }) => tax.rules.map((v) => ({ regime, tax, v })));
const where = (regime: TaxRegime, tax: Tax, v: RuleVersion) =>
  `${regime.id}/${tax.tax}/${v.rule}@${v.effective_from}`;

function esTax(id: string): Tax {
  const tax = CATALOG.es.taxes.find((t) => t.tax === id);
  if (!tax) throw new Error(`no tax ${id}`);
  return tax;
}

/** Rule id → its versions, in catalog order. */
function rulesOf(tax: Tax): Map<string, RuleVersion[]> {
  const map = new Map<string, RuleVersion[]>();
  for (const v of tax.rules) map.set(v.rule, [...(map.get(v.rule) ?? []), v]);
  return map;
}

describe("tax catalog: regimes and taxes", () => {
  it("lists the regimes global and es, in that order, as tax_regime objects", () => {
    expect(TAX_REGIME_IDS).toEqual(["global", "es"]);
    expect(TAX_REGIMES.map((r) => r.id)).toEqual(["global", "es"]);
    expect(Object.keys(CATALOG).sort()).toEqual(["es", "global"]);
    for (const regime of TAX_REGIMES) {
      expect(regimeSchema.safeParse(regime).success, regime.id).toBe(true);
      expect(CATALOG[regime.id]).toBe(regime);
    }
  });

  it("recognises regime ids exactly, and nothing inherited from Object", () => {
    expect(isTaxRegimeId("es")).toBe(true);
    expect(isTaxRegimeId("global")).toBe(true);
    for (const id of ["ES", "fr", "", "__proto__", "toString", "constructor"]) {
      expect(isTaxRegimeId(id), id).toBe(false);
    }
  });

  it("gives global an empty taxes list, because custom taxes come at issuance", () => {
    expect(CATALOG.global.taxes).toEqual([]);
  });

  it("gives es the stable taxes iva and recargo_equivalencia (added) and irpf (withheld)", () => {
    expect(CATALOG.es.taxes.map((t) => [t.tax, t.effect])).toEqual([
      ["iva", "added"],
      ["irpf", "withheld"],
      ["recargo_equivalencia", "added"],
    ]);
  });

  it("gives every tax exactly the seed's fields with the right types", () => {
    expect(ALL_TAXES.length).toBeGreaterThan(0);
    for (const { tax } of ALL_TAXES) {
      const parsed = taxSchema.safeParse(tax);
      expect(parsed.success, `${tax.tax}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("serializes to JSON unchanged (plain data, nothing undefined)", () => {
    expect(JSON.parse(JSON.stringify(CATALOG))).toStrictEqual(CATALOG);
  });

  it("is frozen, so no caller can change the catalog", () => {
    const iva = esTax("iva");
    const first = iva.rules[0]!;
    expect(() => {
      (first as { rate: string | null }).rate = "99%";
    }).toThrow(TypeError);
    expect(() => {
      (iva.rules as RuleVersion[]).push(first);
    }).toThrow(TypeError);
    expect(() => {
      (CATALOG.global.taxes as Tax[]).push(iva);
    }).toThrow(TypeError);
    expect(Object.isFrozen(TAX_REGIMES)).toBe(true);
  });
});

describe("tax catalog: rule versions", () => {
  it("has every seed field on every version, in the seed's order, with the right types", () => {
    expect(ALL_VERSIONS.length).toBeGreaterThan(60);
    for (const { regime, tax, v } of ALL_VERSIONS) {
      expect(Object.keys(v), where(regime, tax, v)).toEqual(SEED_RULE_FIELDS);
      const parsed = ruleVersionSchema.safeParse(v);
      expect(parsed.success, `${where(regime, tax, v)}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("uses snake_case rule ids", () => {
    for (const { regime, tax, v } of ALL_VERSIONS) {
      expect(v.rule, where(regime, tax, v)).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    }
  });

  it("has a rate as an 'N%' string exactly when the treatment is taxable, and null otherwise", () => {
    for (const { regime, tax, v } of ALL_VERSIONS) {
      if (v.treatment === "taxable") expect(v.rate, where(regime, tax, v)).toMatch(/^\d+(\.\d+)?%$/);
      else expect(v.rate, where(regime, tax, v)).toBeNull();
    }
  });

  it("gives every version a short invoice description and a legal reference", () => {
    for (const { regime, tax, v } of ALL_VERSIONS) {
      const at = where(regime, tax, v);
      expect(v.description.trim(), at).toBe(v.description);
      expect(v.description.length, at).toBeLessThanOrEqual(100);
      expect(v.legal_reference, at).toMatch(/^(Ley|RDL|RD) \d+\/\d{4}/);
    }
  });

  it("has effective_until on or after effective_from", () => {
    for (const { regime, tax, v } of ALL_VERSIONS) {
      if (v.effective_until !== null) {
        expect(v.effective_until >= v.effective_from, where(regime, tax, v)).toBe(true);
      }
    }
  });

  it("lists a rule's versions together, oldest first, and never lets two of them overlap", () => {
    for (const { tax } of ALL_TAXES) {
      const seen = new Set<string>();
      let previous: RuleVersion | undefined;
      for (const v of tax.rules) {
        if (previous?.rule !== v.rule) {
          expect(seen.has(v.rule), `${tax.tax}/${v.rule} listed in two places`).toBe(false);
          seen.add(v.rule);
        } else {
          // Same rule: this version must start after the previous one ended.
          expect(
            previous.effective_until,
            `${tax.tax}/${v.rule}: open-ended version before another`,
          ).not.toBeNull();
          expect(
            v.effective_from > previous.effective_until!,
            `${tax.tax}/${v.rule}@${v.effective_from}`,
          ).toBe(true);
        }
        previous = v;
      }
    }
  });

  it("lets only the last version of a rule be open-ended", () => {
    for (const { tax } of ALL_TAXES) {
      for (const [rule, versions] of rulesOf(tax)) {
        for (const v of versions.slice(0, -1)) {
          expect(v.effective_until, `${tax.tax}/${rule}@${v.effective_from}`).not.toBeNull();
        }
      }
    }
  });

  it("keeps the treatment and authority code of a rule the same across its versions", () => {
    for (const { tax } of ALL_TAXES) {
      for (const [rule, versions] of rulesOf(tax)) {
        expect(new Set(versions.map((v) => v.treatment)).size, `${tax.tax}/${rule}`).toBe(1);
        expect(new Set(versions.map((v) => v.authority_code)).size, `${tax.tax}/${rule}`).toBe(1);
      }
    }
  });
});

describe("tax catalog: VERI*FACTU rates", () => {
  it("every IVA and recargo rate has at most two decimals", () => {
    // TipoImpositivo and TipoRecargoEquivalencia are Tipo2.2Type in AEAT's XSD; IRPF is not reported.
    const reported = ALL_VERSIONS.filter(
      ({ regime, tax, v }) =>
        regime.id === "es" && ["iva", "recargo_equivalencia"].includes(tax.tax) && v.rate !== null,
    );
    expect(reported.length).toBeGreaterThan(40);
    for (const { regime, tax, v } of reported) {
      expect(v.rate, where(regime, tax, v)).toMatch(/^\d+(\.\d{1,2})?%$/);
    }
  });
});

describe("tax catalog: es content", () => {
  it("has the stable IVA rules", () => {
    expect([...rulesOf(esTax("iva")).keys()]).toEqual([
      "general",
      "reduced",
      "super_reduced",
      "tobacco",
      "food_basic_temporary",
      "olive_oil_temporary",
      "seed_oil_pasta_temporary",
      "electricity_temporary",
      "natural_gas_temporary",
      "biomass_temporary",
      "exempt_art_20",
      "exempt_art_21",
      "exempt_art_22",
      "exempt_arts_23_24",
      "exempt_art_25",
      "exempt_other",
      "reverse_charge_eu",
      "reverse_charge",
      "not_subject_art_7_14",
      "not_subject_location",
    ]);
  });

  it("has the stable IRPF and recargo de equivalencia rules", () => {
    expect([...rulesOf(esTax("irpf")).keys()]).toEqual([
      "professional",
      "professional_low_income",
      "professional_new",
      "courses_conferences_works",
      "capital",
      "rental",
      "image_rights",
      "modules",
      "agriculture_livestock",
      "pig_fattening_poultry",
    ]);
    expect([...rulesOf(esTax("recargo_equivalencia")).keys()]).toEqual([
      "general",
      "reduced",
      "super_reduced",
      "tobacco",
      "food_basic_temporary",
      "olive_oil_temporary",
      "seed_oil_pasta_temporary",
      "biomass_temporary",
    ]);
  });

  it("gives IVA rules their VERI*FACTU codes: S1 taxable, S2 domestic reverse charge, E1–E6 exempt, N1/N2 not subject", () => {
    const codes = Object.fromEntries(
      [...rulesOf(esTax("iva"))].map(([rule, vs]) => [rule, [vs[0]!.treatment, vs[0]!.authority_code]]),
    );
    expect(codes).toEqual({
      general: ["taxable", "S1"],
      reduced: ["taxable", "S1"],
      super_reduced: ["taxable", "S1"],
      tobacco: ["taxable", "S1"],
      food_basic_temporary: ["taxable", "S1"],
      olive_oil_temporary: ["taxable", "S1"],
      seed_oil_pasta_temporary: ["taxable", "S1"],
      electricity_temporary: ["taxable", "S1"],
      natural_gas_temporary: ["taxable", "S1"],
      biomass_temporary: ["taxable", "S1"],
      exempt_art_20: ["exempt", "E1"],
      exempt_art_21: ["exempt", "E2"],
      exempt_art_22: ["exempt", "E3"],
      exempt_arts_23_24: ["exempt", "E4"],
      exempt_art_25: ["exempt", "E5"],
      exempt_other: ["exempt", "E6"],
      reverse_charge_eu: ["reverse_charge", "N2"],
      reverse_charge: ["reverse_charge", "S2"],
      not_subject_art_7_14: ["not_subject", "N1"],
      not_subject_location: ["not_subject", "N2"],
    });
  });

  it("cites the article of each exempt, reverse-charge and not-subject rule", () => {
    const refs = Object.fromEntries(
      esTax("iva")
        .rules.filter((v) => v.treatment !== "taxable")
        .map((v) => [v.rule, v.legal_reference]),
    );
    expect(refs).toEqual({
      exempt_art_20: "Ley 37/1992, art. 20",
      exempt_art_21: "Ley 37/1992, art. 21",
      exempt_art_22: "Ley 37/1992, art. 22",
      exempt_arts_23_24: "Ley 37/1992, arts. 23 y 24",
      exempt_art_25: "Ley 37/1992, art. 25",
      exempt_other: "Ley 37/1992 (exención distinta de las de los arts. 20 a 25)",
      reverse_charge_eu: "Ley 37/1992, art. 69.Uno.1º; RD 1619/2012, art. 6.1.m)",
      reverse_charge: "Ley 37/1992, art. 84.Uno.2º",
      not_subject_art_7_14: "Ley 37/1992, arts. 7 y 14",
      not_subject_location: "Ley 37/1992, arts. 68 a 70",
    });
  });

  it("gives IRPF and recargo de equivalencia no authority code, and only taxable rules", () => {
    for (const id of ["irpf", "recargo_equivalencia"]) {
      for (const v of esTax(id).rules) {
        expect(v.authority_code, `${id}/${v.rule}`).toBeNull();
        expect(v.treatment, `${id}/${v.rule}`).toBe("taxable");
      }
    }
  });

  it("keeps the permanent rates gapless from their first documented day and open-ended today", () => {
    const cases: [string, string, string][] = [
      ["iva", "general", "1993-01-01"],
      ["iva", "reduced", "1993-01-01"],
      ["iva", "super_reduced", "1993-01-01"],
      ["iva", "tobacco", "1993-01-01"],
      ["irpf", "professional", "2007-01-01"],
      ["irpf", "professional_new", "2007-01-01"],
      ["irpf", "capital", "2015-01-01"],
      ["irpf", "rental", "2015-01-01"],
      ["irpf", "agriculture_livestock", "2007-01-01"],
      ["irpf", "pig_fattening_poultry", "2007-01-01"],
      ["recargo_equivalencia", "general", "2010-07-01"],
      ["recargo_equivalencia", "reduced", "2010-07-01"],
      ["recargo_equivalencia", "super_reduced", "1995-01-01"],
      ["recargo_equivalencia", "tobacco", "2012-09-01"],
    ];
    for (const [taxId, rule, first] of cases) {
      const versions = rulesOf(esTax(taxId)).get(rule)!;
      expect(versions[0]!.effective_from, `${taxId}/${rule}`).toBe(first);
      expect(versions.at(-1)!.effective_until, `${taxId}/${rule}`).toBeNull();
      for (let i = 1; i < versions.length; i++) {
        expect(versions[i]!.effective_from, `${taxId}/${rule}#${i}`).toBe(
          nextDay(versions[i - 1]!.effective_until!),
        );
      }
    }
  });

  it("ends every temporary rule by 2024-12-31", () => {
    const temporary = ALL_VERSIONS.filter(({ v }) => v.rule.endsWith("_temporary"));
    expect(temporary.length).toBeGreaterThan(10);
    for (const { regime, tax, v } of temporary) {
      expect(v.effective_until, where(regime, tax, v)).not.toBeNull();
      expect(v.effective_until! <= "2024-12-31", where(regime, tax, v)).toBe(true);
    }
  });

  it("pairs every recargo de equivalencia version with the IVA rate of the same rule over its whole period", () => {
    // IVA rate → recargo rate (domain.md §3.3; 5 % → 0.62 % as AEAT applies it); tobacco: 1.75 % (art. 161).
    const pairs: Record<string, string> = {
      "21%": "5.2%",
      "18%": "4%",
      "10%": "1.4%",
      "8%": "1%",
      "4%": "0.5%",
      "7.5%": "1%",
      "5%": "0.62%",
      "2%": "0.26%",
      "0%": "0%",
    };
    const iva = esTax("iva");
    for (const re of esTax("recargo_equivalencia").rules) {
      const end = re.effective_until ?? "9999-12-31";
      // Check the start, the end and every IVA change inside the period.
      const dates = new Set([re.effective_from, end]);
      for (const v of iva.rules.filter((x) => x.rule === re.rule)) {
        if (v.effective_from > re.effective_from && v.effective_from <= end) dates.add(v.effective_from);
      }
      for (const date of dates) {
        const resolved = resolveRule("es", "iva", re.rule, date);
        const at = `recargo_equivalencia/${re.rule}@${re.effective_from} on ${date}`;
        expect(resolved.ok, at).toBe(true);
        if (resolved.ok)
          expect(re.rule === "tobacco" ? "1.75%" : pairs[resolved.version.rate!], at).toBe(re.rate);
      }
    }
  });
});
