import type { TaxIdType } from "../constants";
import type { Registry, RegistryAnswer } from "./registry";

type Behaviour = "invalid" | "always_unavailable" | "unavailable_once";

/**
 * compliance.md's sandbox table, by type and normalised value (an `eu_vat` value carries its
 * prefix). Every other value is valid. Test mode uses it so that it never leaves the Worker.
 */
const TABLE: Record<TaxIdType, Readonly<Record<string, Behaviour>>> = {
  es_nif: { "99999999R": "invalid", "00000000T": "always_unavailable", "11111111H": "unavailable_once" },
  eu_vat: { ES99999999R: "invalid", ES00000000T: "always_unavailable", ES11111111H: "unavailable_once" },
  local: {},
};

const result = (valid: boolean): RegistryAnswer => ({ kind: "result", valid, name: null, address: null });
const UNAVAILABLE: RegistryAnswer = { kind: "unavailable", reason: "sandbox:unavailable" };

/**
 * The Test-mode registry: deterministic answers for the magic values, no network.
 *
 * @example
 * await sandboxRegistry.check({ country: "ES", type: "es_nif", value: "11111111H" }, 1); // unavailable
 * await sandboxRegistry.check({ country: "ES", type: "es_nif", value: "11111111H" }, 2); // valid
 */
export const sandboxRegistry: Registry = {
  async check(query, attempt) {
    switch (TABLE[query.type][query.value]) {
      case "invalid":
        return result(false);
      case "always_unavailable":
        return UNAVAILABLE;
      case "unavailable_once":
        return attempt <= 1 ? UNAVAILABLE : result(true);
      default:
        return result(true);
    }
  },
};
