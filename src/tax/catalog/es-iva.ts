import type { Tax } from "../types";
import { LIVA_START, type Period, versions } from "./define";

/**
 * IVA (Ley 37/1992). Sources: Ley 37/1992 arts. 20–25, 69–70, 84, 90–91 and the RDLs cited per rule.
 *
 * Permanent rates: general, reduced, super_reduced (dates from invopop/gobl
 * regimes/es/tax_categories.go; Ley 26/2009 from 2010-07-01; RDL 20/2012 from 2012-09-01).
 *
 * Temporary rates (2021–2024) are modelled as their own rules (`*_temporary`), each with its
 * versions, and they simply end (`effective_until`). Nothing "reverts" inside a temporary
 * rule: once a measure ends, the goods are invoiced under the permanent rule that applies to
 * them (`super_reduced` 4 % for basic foods and, from 2025-01-01, olive oil; `reduced` 10 % for
 * seed oils and pasta; `general` 21 % for energy). A date after the end of a temporary rule is
 * `not_in_force`, never silently the permanent rate.
 *
 * Authority codes (VERI*FACTU, Orden HAC/1177/2024): taxable S1, domestic reverse charge S2,
 * exempt E1–E6 by article, not subject N1 (arts. 7, 14) / N2 (place-of-supply rules, which
 * include the EU-services reverse charge). The codes label the treatment; the SII already used
 * the same lists before VERI*FACTU. Rates have at most two decimals: VERI*FACTU reports
 * `TipoImpositivo` as Tipo2.2 (the catalog test checks it).
 * The 0 % temporary food rate is S1 (subject, not exempt, rate 0), the reading of RDL 20/2022
 * art. 72 (a reduced rate, not an exemption); AEAT's final stance (S1 vs E6) is unverified.
 */

const S1 = "S1";

const GENERAL_PERIODS: readonly Period[] = [
  { rate: "15%", from: "1993-01-01", until: "1994-12-31", ref: "Ley 37/1992, art. 90" },
  { rate: "16%", from: "1995-01-01", until: "2010-06-30", ref: "Ley 37/1992, art. 90" },
  { rate: "18%", from: "2010-07-01", until: "2012-08-31", ref: "Ley 37/1992, art. 90; Ley 26/2009" },
  { rate: "21%", from: "2012-09-01", until: null, ref: "Ley 37/1992, art. 90; RDL 20/2012" },
];

const general = versions(
  { rule: "general", description: "IVA general rate", treatment: "taxable", authority_code: S1 },
  GENERAL_PERIODS,
);

// Tobacco products (labores del tabaco) pay the general rate; the rule exists so that a line can
// carry the tobacco recargo de equivalencia (1.75 %), which issuance pairs by rule id.
const tobacco = versions(
  {
    rule: "tobacco",
    description: "IVA general rate, tobacco products",
    treatment: "taxable",
    authority_code: S1,
  },
  GENERAL_PERIODS,
);

const reduced = versions(
  { rule: "reduced", description: "IVA reduced rate", treatment: "taxable", authority_code: S1 },
  [
    { rate: "6%", from: "1993-01-01", until: "1994-12-31", ref: "Ley 37/1992, art. 91.Uno" },
    { rate: "7%", from: "1995-01-01", until: "2010-06-30", ref: "Ley 37/1992, art. 91.Uno" },
    { rate: "8%", from: "2010-07-01", until: "2012-08-31", ref: "Ley 37/1992, art. 91.Uno; Ley 26/2009" },
    { rate: "10%", from: "2012-09-01", until: null, ref: "Ley 37/1992, art. 91.Uno; RDL 20/2012" },
  ],
);

const superReduced = versions(
  { rule: "super_reduced", description: "IVA super-reduced rate", treatment: "taxable", authority_code: S1 },
  [
    { rate: "3%", from: "1993-01-01", until: "1994-12-31", ref: "Ley 37/1992, art. 91.Dos" },
    { rate: "4%", from: "1995-01-01", until: null, ref: "Ley 37/1992, art. 91.Dos" },
  ],
);

// Bread, bread-making flours, milk, cheese, eggs, fruit, vegetables, legumes, tubers, cereals
// (normally 4 %). 0 % from RDL 20/2022 art. 72 (to 2023-06-30), extended by RDL 5/2023
// art. 171 (2023-12-31), RDL 8/2023 art. 20 (2024-06-30) and RDL 4/2024 (2024-09-30).
const foodBasic = versions(
  {
    rule: "food_basic_temporary",
    description: "IVA temporary rate on basic foods",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    {
      rate: "0%",
      from: "2023-01-01",
      until: "2024-09-30",
      ref: "RDL 20/2022, art. 72; RDL 5/2023, art. 171; RDL 8/2023, art. 20; RDL 4/2024",
    },
    { rate: "2%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

// Olive oil (normally 10 %; 4 % super-reduced permanently from 2025-01-01, RDL 4/2024).
const oliveOil = versions(
  {
    rule: "olive_oil_temporary",
    description: "IVA temporary rate on olive oil",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    { rate: "5%", from: "2023-01-01", until: "2024-06-30", ref: "RDL 20/2022, art. 72; RDL 8/2023" },
    { rate: "0%", from: "2024-07-01", until: "2024-09-30", ref: "RDL 4/2024" },
    { rate: "2%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

// Seed oils and pasta (normally 10 %).
const seedOilPasta = versions(
  {
    rule: "seed_oil_pasta_temporary",
    description: "IVA temporary rate on seed oils and pasta",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    {
      rate: "5%",
      from: "2023-01-01",
      until: "2024-09-30",
      ref: "RDL 20/2022, art. 72; RDL 8/2023; RDL 4/2024",
    },
    { rate: "7.5%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

// Electricity for contracted power ≤ 10 kW (or severely vulnerable consumers), applicable only
// while the previous month's wholesale price exceeded 45 €/MWh (in 2024 some months, e.g.
// March, fell back to 21 %; the months are not modelled: the issuer chooses the rule).
const electricity = versions(
  {
    rule: "electricity_temporary",
    description: "IVA temporary rate on electricity (≤10 kW or vulnerable consumers; wholesale > 45 €/MWh)",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    { rate: "10%", from: "2021-06-26", until: "2022-06-30", ref: "RDL 12/2021 (extended)" },
    { rate: "5%", from: "2022-07-01", until: "2023-12-31", ref: "RDL 11/2022, art. 18; RDL 20/2022" },
    { rate: "10%", from: "2024-01-01", until: "2024-12-31", ref: "RDL 8/2023, art. 21" },
  ],
);

const naturalGas = versions(
  {
    rule: "natural_gas_temporary",
    description: "IVA temporary rate on natural gas",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    { rate: "5%", from: "2022-10-01", until: "2023-12-31", ref: "RDL 17/2022, art. 5; RDL 20/2022" },
    { rate: "10%", from: "2024-01-01", until: "2024-03-31", ref: "RDL 8/2023" },
  ],
);

// Pellets, briquettes and firewood for heating. The end of the 10 % rate (once unverified)
// was checked: RDL 4/2024 did not extend it and the rate returned to 21 % on
// 2024-07-01 (https://www.aefecc.es/malas-noticias-el-iva-aplicado-a-los-combustibles-de-biomasa-vuelve-al-21-desde-el-1-de-julio/).
const biomass = versions(
  {
    rule: "biomass_temporary",
    description: "IVA temporary rate on pellets, briquettes and firewood",
    treatment: "taxable",
    authority_code: S1,
  },
  [
    { rate: "5%", from: "2022-10-01", until: "2023-12-31", ref: "RDL 17/2022, art. 6; RDL 20/2022, art. 1" },
    { rate: "10%", from: "2024-01-01", until: "2024-06-30", ref: "RDL 8/2023" },
  ],
);

// Two reverse charges with different VERI*FACTU qualifications. `reverse_charge` keeps its
// id and its meaning (it always cited art. 84.Uno.2º): the domestic case, where the Spanish
// business recipient becomes the taxpayer (construction works, scrap, gold, real estate,
// electronics…), S2. Services to a business in another member state are `reverse_charge_eu`:
// the place of supply is the recipient's country (art. 69.Uno.1º), so the operation is not
// subject in Spain (N2) and the recipient self-assesses there (Directive 2006/112/EC art.
// 196); the invoice says "Inversión del sujeto pasivo" (RD 1619/2012 art. 6.1.m).
const reverseChargeEu = versions(
  {
    rule: "reverse_charge_eu",
    description: "Reverse charge: services to an EU business, not subject to Spanish IVA (art. 69)",
    treatment: "reverse_charge",
    authority_code: "N2",
  },
  [
    {
      rate: null,
      from: LIVA_START,
      until: null,
      ref: "Ley 37/1992, art. 69.Uno.1º; RD 1619/2012, art. 6.1.m)",
    },
  ],
);

const reverseChargeDomestic = versions(
  {
    rule: "reverse_charge",
    description: "Reverse charge: IVA payable by the business recipient (art. 84.Uno.2º Ley 37/1992)",
    treatment: "reverse_charge",
    authority_code: "S2",
  },
  [{ rate: null, from: LIVA_START, until: null, ref: "Ley 37/1992, art. 84.Uno.2º" }],
);

const exempt = (rule: string, description: string, code: string, ref: string) =>
  versions({ rule, description, treatment: "exempt", authority_code: code }, [
    { rate: null, from: LIVA_START, until: null, ref },
  ]);

const notSubject = (rule: string, description: string, code: string, ref: string) =>
  versions({ rule, description, treatment: "not_subject", authority_code: code }, [
    { rate: null, from: LIVA_START, until: null, ref },
  ]);

export const IVA: Tax = {
  tax: "iva",
  name: "Impuesto sobre el Valor Añadido (IVA)",
  effect: "added",
  rules: [
    ...general,
    ...reduced,
    ...superReduced,
    ...tobacco,
    ...foodBasic,
    ...oliveOil,
    ...seedOilPasta,
    ...electricity,
    ...naturalGas,
    ...biomass,
    ...exempt("exempt_art_20", "IVA exempt (art. 20 Ley 37/1992)", "E1", "Ley 37/1992, art. 20"),
    ...exempt(
      "exempt_art_21",
      "IVA exempt: export of goods (art. 21 Ley 37/1992)",
      "E2",
      "Ley 37/1992, art. 21",
    ),
    ...exempt(
      "exempt_art_22",
      "IVA exempt: operation assimilated to exports (art. 22 Ley 37/1992)",
      "E3",
      "Ley 37/1992, art. 22",
    ),
    ...exempt(
      "exempt_arts_23_24",
      "IVA exempt: customs and tax warehouse regimes (arts. 23 and 24 Ley 37/1992)",
      "E4",
      "Ley 37/1992, arts. 23 y 24",
    ),
    ...exempt(
      "exempt_art_25",
      "IVA exempt: intra-Community supply of goods (art. 25 Ley 37/1992)",
      "E5",
      "Ley 37/1992, art. 25",
    ),
    ...exempt(
      "exempt_other",
      "IVA exempt (Ley 37/1992)",
      "E6",
      "Ley 37/1992 (exención distinta de las de los arts. 20 a 25)",
    ),
    ...reverseChargeEu,
    ...reverseChargeDomestic,
    ...notSubject(
      "not_subject_art_7_14",
      "Not subject to IVA (arts. 7 and 14 Ley 37/1992)",
      "N1",
      "Ley 37/1992, arts. 7 y 14",
    ),
    ...notSubject(
      "not_subject_location",
      "Not subject to Spanish IVA under the place-of-supply rules (arts. 68–70 Ley 37/1992)",
      "N2",
      "Ley 37/1992, arts. 68 a 70",
    ),
  ],
};
