import { TAX_REGIME_IDS, type TaxRegimeId } from "../../constants";
import type { TaxRegime } from "../types";
import { ES } from "./es";
import { GLOBAL } from "./global";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The public tax-regime catalog: the one source of truth, frozen so no caller can change it.
 * Each regime serializes as the API's Tax Regime object (every effective-dated rule version).
 */
export const CATALOG: Readonly<Record<TaxRegimeId, TaxRegime>> = deepFreeze({
  global: GLOBAL,
  es: ES,
});

/** Every regime, in the order the list endpoint returns them (`global`, `es`). */
export const TAX_REGIMES: readonly TaxRegime[] = Object.freeze(TAX_REGIME_IDS.map((id) => CATALOG[id]));

/** Narrows a string (e.g. a path parameter) to a regime id. Safe against `__proto__` and the like. */
export function isTaxRegimeId(id: string): id is TaxRegimeId {
  return (TAX_REGIME_IDS as readonly string[]).includes(id);
}
