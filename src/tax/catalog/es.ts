import type { TaxRegime } from "../types";
import { IRPF } from "./es-irpf";
import { IVA } from "./es-iva";
import { RECARGO_EQUIVALENCIA } from "./es-re";

/**
 * Spanish regime: IVA and recargo de equivalencia (added), IRPF (withheld).
 * The catalog is not tax or legal advice; every value cites its source in the tax's file.
 * IRPF rates are the common territory's (not the Basque Country's or Navarre's). The Tax Regime
 * object has no notes field (the seed fixes its fields), so that limit is documented in docs/tax-regimes.md.
 */
export const ES: TaxRegime = {
  id: "es",
  object: "tax_regime",
  taxes: [IVA, IRPF, RECARGO_EQUIVALENCIA],
};
