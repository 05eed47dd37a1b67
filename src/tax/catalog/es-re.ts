import type { Tax } from "../types";
import { type RuleHead, versions } from "./define";

/**
 * Recargo de equivalencia (Ley 37/1992, arts. 154–163; rates art. 161), charged by suppliers to
 * retailers under the regime, on top of IVA. Each rule shares its id with the IVA rule whose
 * rate it accompanies, and is in force only while that IVA rule is.
 * Sources: Ley 37/1992 art. 161 and the RDLs named below; invopop/gobl regimes/es/tax_categories.go.
 *
 * - general / reduced: gobl dates them from 2010-07-01 (4 % / 1 % with IVA 18 % / 8 %). The values
 *   that went with IVA 16 % / 7 % before 2010-07-01 are not documented, so they are left out.
 * - super_reduced: 0.5 % since 1995-01-01 (gobl). The value that went with 3 % in 1993–1994 is
 *   not documented; left out.
 * - tobacco: 1.75 % (art. 161; the SII validation list and modelo 303's boxes). Dated from
 *   2012-09-01, when RDL 20/2012 rewrote art. 161; its earlier value is not documented here.
 * - Temporary rates mirror the IVA temporary rules and end with them. For IVA 5 % on foods,
 *   oils and biomass, RDL 20/2022 says 0.625 % but AEAT announced 0.62 % because its systems
 *   accept two decimals (AEAT notice quoted in OCA/l10n-spain#2715); 0.62 % is used. VERI*FACTU
 *   reports `TipoRecargoEquivalencia` as Tipo2.2 too, so every rate here has at most two decimals.
 * - No natural-gas rule: no norm sets a recargo for the gas rates (RDL 20/2022 sets 0.625 % for
 *   briquettes, pellets and firewood only; a 0.625 % gas rule once recorded here had no basis).
 * Left out: electricity (no surcharge value documented); biomass from 2022-10-01 to 2022-12-31
 * (RDL 17/2022 sets no surcharge).
 *
 * Recargo has no VERI*FACTU qualification code of its own, so `authority_code` is null.
 */

const surcharge = (rule: string, description: string): RuleHead => ({
  rule,
  description,
  treatment: "taxable",
  authority_code: null,
});

const general = versions(surcharge("general", "Recargo de equivalencia, IVA general rate"), [
  { rate: "4%", from: "2010-07-01", until: "2012-08-31", ref: "Ley 37/1992, art. 161; Ley 26/2009" },
  { rate: "5.2%", from: "2012-09-01", until: null, ref: "Ley 37/1992, art. 161; RDL 20/2012" },
]);

const reduced = versions(surcharge("reduced", "Recargo de equivalencia, IVA reduced rate"), [
  { rate: "1%", from: "2010-07-01", until: "2012-08-31", ref: "Ley 37/1992, art. 161; Ley 26/2009" },
  { rate: "1.4%", from: "2012-09-01", until: null, ref: "Ley 37/1992, art. 161; RDL 20/2012" },
]);

const superReduced = versions(surcharge("super_reduced", "Recargo de equivalencia, IVA super-reduced rate"), [
  { rate: "0.5%", from: "1995-01-01", until: null, ref: "Ley 37/1992, art. 161" },
]);

const foodBasic = versions(
  surcharge("food_basic_temporary", "Recargo de equivalencia, IVA temporary rate on basic foods"),
  [
    {
      rate: "0%",
      from: "2023-01-01",
      until: "2024-09-30",
      ref: "RDL 20/2022, art. 72; RDL 5/2023, art. 171; RDL 8/2023, art. 20; RDL 4/2024",
    },
    { rate: "0.26%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

const oliveOil = versions(
  surcharge("olive_oil_temporary", "Recargo de equivalencia, IVA temporary rate on olive oil"),
  [
    { rate: "0.62%", from: "2023-01-01", until: "2024-06-30", ref: "RDL 20/2022, art. 72; RDL 8/2023" },
    { rate: "0%", from: "2024-07-01", until: "2024-09-30", ref: "RDL 4/2024" },
    { rate: "0.26%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

const seedOilPasta = versions(
  surcharge("seed_oil_pasta_temporary", "Recargo de equivalencia, IVA temporary rate on seed oils and pasta"),
  [
    {
      rate: "0.62%",
      from: "2023-01-01",
      until: "2024-09-30",
      ref: "RDL 20/2022, art. 72; RDL 8/2023; RDL 4/2024",
    },
    { rate: "1%", from: "2024-10-01", until: "2024-12-31", ref: "RDL 4/2024" },
  ],
);

const tobacco = versions(surcharge("tobacco", "Recargo de equivalencia, tobacco products"), [
  { rate: "1.75%", from: "2012-09-01", until: null, ref: "Ley 37/1992, art. 161; RDL 20/2012" },
]);

// Briquettes and pellets from biomass, and firewood. 2023: RDL 20/2022 art. 1 (0.625 %, applied
// as 0.62 %, above); 2024-01-01 → 2024-06-30 with IVA 10 %: RDL 8/2023, the reduced rate's 1.4 %.
const biomass = versions(
  surcharge(
    "biomass_temporary",
    "Recargo de equivalencia, IVA temporary rate on pellets, briquettes and firewood",
  ),
  [
    { rate: "0.62%", from: "2023-01-01", until: "2023-12-31", ref: "RDL 20/2022, art. 1" },
    { rate: "1.4%", from: "2024-01-01", until: "2024-06-30", ref: "RDL 8/2023; Ley 37/1992, art. 161" },
  ],
);

export const RECARGO_EQUIVALENCIA: Tax = {
  tax: "recargo_equivalencia",
  name: "Recargo de equivalencia",
  effect: "added",
  rules: [
    ...general,
    ...reduced,
    ...superReduced,
    ...tobacco,
    ...foodBasic,
    ...oliveOil,
    ...seedOilPasta,
    ...biomass,
  ],
};
