import type { Tax } from "../types";
import { type RuleHead, versions } from "./define";

/**
 * IRPF withholding (retenciones), Ley 35/2006 and its regulation RD 439/2007: the rates of the
 * common territory only. The Basque Country and Navarre levy their own income tax (concierto and
 * convenio económico) with their own withholding rates, which this catalog does not hold.
 * Sources: Ley 35/2006 art. 101 and RD 439/2007 arts. 95 and 101; invopop/gobl regimes/es/tax_categories.go;
 * AEAT "Rendimientos de capital mobiliario" page (capital rates 2015–2016, image rights).
 *
 * Start dates: the oldest documented start is used and nothing earlier is added.
 * - `professional` 15 % "→ 2012-08-31" and `professional_new` 7 % "→ 2012-08-31" have no documented
 *   start; gobl has `pro` 15 % and `pro-start` 7 % since 2007-01-01, used here.
 * - `modules` 1 %: gobl `modules` since 2007-01-01.
 * - `capital` / `rental`: AEAT dates them from 2015-01-01 (20 %); the earlier
 *   history (e.g. 21 % in 2012–2014) has no documented dates, so it is left out.
 * - `image_rights` 24 %: AEAT says "desde 2015"; 2015-01-01 is the start of that year's
 *   regime (Ley 26/2014), the same date AEAT gives for the 2015 capital rate.
 * - `courses_conferences_works` 15 %: documented only from 2015-07-12 (RDL 9/2015).
 * - `professional_low_income` 15 %: from 2014-07-05, the day RDL 8/2014 (BOE of that day) came
 *   into force (Ley 35/2006 DA 40ª), then Ley 26/2014 from 2015-01-01, until the general rate
 *   became 15 % itself on 2015-07-12.
 * - `agriculture_livestock` 2 % and `pig_fattening_poultry` 1 % (RD 439/2007 art. 95.4): dated
 *   from 2007-01-01 like `modules` (the regulation's first year); forestry (also 2 %) is left out.
 * Left out (no documented start date): directors 35 % / 19 %, inpatriates 24 % / 45 %.
 *
 * VERI*FACTU has no IRPF code, so `authority_code` is null throughout.
 */

const withheld = (rule: string, description: string): RuleHead => ({
  rule,
  description,
  treatment: "taxable",
  authority_code: null,
});

const professional = versions(withheld("professional", "IRPF withholding, professional activities"), [
  {
    rate: "15%",
    from: "2007-01-01",
    until: "2012-08-31",
    ref: "Ley 35/2006, art. 101; RD 439/2007, art. 95",
  },
  { rate: "21%", from: "2012-09-01", until: "2014-12-31", ref: "Ley 35/2006, art. 101; RDL 20/2012" },
  { rate: "19%", from: "2015-01-01", until: "2015-07-11", ref: "Ley 35/2006, art. 101; Ley 26/2014" },
  { rate: "15%", from: "2015-07-12", until: null, ref: "Ley 35/2006, art. 101; RDL 9/2015" },
]);

// 2014-07-05 → 2015-07-11 only: 15 % instead of 21 % (2014) or 19 % (2015) when the prior year's
// professional income was under 15 000 € and over 75 % of the taxpayer's work and activity
// income. From 2015-07-12 the general `professional` rate is itself 15 %.
const professionalLowIncome = versions(
  withheld(
    "professional_low_income",
    "IRPF withholding, professional activities (prior-year income < 15,000 €)",
  ),
  [
    { rate: "15%", from: "2014-07-05", until: "2014-12-31", ref: "Ley 35/2006, DA 40ª; RDL 8/2014" },
    { rate: "15%", from: "2015-01-01", until: "2015-07-11", ref: "Ley 35/2006, art. 101; Ley 26/2014" },
  ],
);

// Start year of the activity and the two following, with no activity in the previous year.
const professionalNew = versions(
  withheld("professional_new", "IRPF withholding, new professional activity"),
  [
    {
      rate: "7%",
      from: "2007-01-01",
      until: "2012-08-31",
      ref: "Ley 35/2006, art. 101; RD 439/2007, art. 95",
    },
    {
      rate: "9%",
      from: "2012-09-01",
      until: "2015-07-11",
      ref: "Ley 35/2006, art. 101; RDL 20/2012; Ley 26/2014",
    },
    { rate: "7%", from: "2015-07-12", until: null, ref: "Ley 35/2006, art. 101; RDL 9/2015" },
  ],
);

// Work income from courses, conferences, seminars, and literary, artistic or scientific works
// whose exploitation rights are assigned.
const coursesConferencesWorks = versions(
  withheld(
    "courses_conferences_works",
    "IRPF withholding, courses, conferences and literary or scientific works",
  ),
  [{ rate: "15%", from: "2015-07-12", until: null, ref: "Ley 35/2006, art. 101; RDL 9/2015" }],
);

const capital = versions(withheld("capital", "IRPF withholding, movable capital income"), [
  { rate: "20%", from: "2015-01-01", until: "2015-07-11", ref: "Ley 35/2006, art. 101.4; Ley 26/2014" },
  { rate: "19.5%", from: "2015-07-12", until: "2015-12-31", ref: "Ley 35/2006, art. 101.4; RDL 9/2015" },
  { rate: "19%", from: "2016-01-01", until: null, ref: "Ley 35/2006, art. 101.4; RD 439/2007, art. 90" },
]);

const rental = versions(withheld("rental", "IRPF withholding, rental of urban real estate"), [
  { rate: "20%", from: "2015-01-01", until: "2015-07-11", ref: "Ley 35/2006, art. 101; Ley 26/2014" },
  { rate: "19.5%", from: "2015-07-12", until: "2015-12-31", ref: "Ley 35/2006, art. 101; RDL 9/2015" },
  { rate: "19%", from: "2016-01-01", until: null, ref: "Ley 35/2006, art. 101; RD 439/2007, art. 100" },
]);

const imageRights = versions(withheld("image_rights", "IRPF withholding, assignment of image rights"), [
  { rate: "24%", from: "2015-01-01", until: null, ref: "Ley 35/2006, art. 101.10" },
]);

const modules = versions(
  withheld("modules", "IRPF withholding, business activity under estimación objetiva (módulos)"),
  [{ rate: "1%", from: "2007-01-01", until: null, ref: "RD 439/2007, art. 95" }],
);

const agricultureLivestock = versions(
  withheld("agriculture_livestock", "IRPF withholding, agricultural and livestock activities"),
  [{ rate: "2%", from: "2007-01-01", until: null, ref: "RD 439/2007, art. 95.4" }],
);

const pigFatteningPoultry = versions(
  withheld("pig_fattening_poultry", "IRPF withholding, pig fattening and poultry activities"),
  [{ rate: "1%", from: "2007-01-01", until: null, ref: "RD 439/2007, art. 95.4" }],
);

export const IRPF: Tax = {
  tax: "irpf",
  name: "Impuesto sobre la Renta de las Personas Físicas (IRPF)",
  effect: "withheld",
  rules: [
    ...professional,
    ...professionalLowIncome,
    ...professionalNew,
    ...coursesConferencesWorks,
    ...capital,
    ...rental,
    ...imageRights,
    ...modules,
    ...agricultureLivestock,
    ...pigFatteningPoultry,
  ],
};
