import { isCountryCode } from "./countries";
import { asciiUpperCase } from "./fields";

export type BicCheck = { ok: true; value: string } | { ok: false; message: string };

// ISO 9362: institution (4 letters), country (2 letters), location (2), optional branch (3).
const BIC = /^([A-Z]{4})([A-Z]{2})[0-9A-Z]{2}(?:[0-9A-Z]{3})?$/;

/**
 * Normalises a BIC (SWIFT code): whitespace removed, uppercased; then checks the ISO 9362 shape
 * and that characters 5-6 are an ISO 3166-1 country code.
 *
 * @example
 * checkBic("deut de ff")  // { ok: true, value: "DEUTDEFF" }
 * checkBic("DEUTDEFF500") // { ok: true, value: "DEUTDEFF500" }
 * checkBic("DEUTZZFF")    // { ok: false, message: "BIC country code \"ZZ\" is not an ISO 3166-1 country." }
 */
export function checkBic(input: string): BicCheck {
  const compact = input.replace(/\s+/g, "");
  const value = asciiUpperCase(compact);
  if (value === undefined) {
    return { ok: false, message: "BIC may contain only letters A-Z and digits 0-9." };
  }
  if (value.length !== 8 && value.length !== 11) {
    return { ok: false, message: `BIC must be 8 or 11 characters, got ${value.length}.` };
  }
  const match = BIC.exec(value);
  if (!match) {
    return {
      ok: false,
      message:
        "BIC must be 4 letters (bank), 2 letters (country), 2 letters or digits (location) and an optional 3 letters or digits (branch).",
    };
  }
  if (!isCountryCode(match[2] as string)) {
    return { ok: false, message: `BIC country code "${match[2]}" is not an ISO 3166-1 country.` };
  }
  return { ok: true, value };
}
