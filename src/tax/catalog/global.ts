import type { TaxRegime } from "../types";

/** Flexible regime: no structured taxes; custom taxes are supplied at issuance. */
export const GLOBAL: TaxRegime = {
  id: "global",
  object: "tax_regime",
  taxes: [],
};
