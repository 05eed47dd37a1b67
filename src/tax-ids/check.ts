import type { TaxIdType } from "../constants";
import { EU_MEMBER_STATES, isCountryCode, vatPrefix } from "../lib/countries";
import { asciiUpperCase } from "../lib/fields";
import { checkSpanishNif, type SpanishNifKind } from "./es-nif";
import { checkEuVat } from "./eu-vat";

export type { TaxIdType };

export type TaxIdCheck =
  | { ok: true; country: string; type: TaxIdType; value: string }
  | { ok: false; param: "tax_id.country" | "tax_id.value"; message: string };

type Failure = Extract<TaxIdCheck, { ok: false }>;

const NIF_NAMES: Record<SpanishNifKind, string> = {
  dni: "DNI",
  nie: "NIE",
  klm: "K/L/M NIF",
  entity: "entity NIF",
};

const COUNTRY_RULE: Record<TaxIdType, (country: string) => string | undefined> = {
  es_nif: (c) => (c === "ES" ? undefined : `an es_nif tax ID requires country ES, not ${c}`),
  eu_vat: (c) =>
    EU_MEMBER_STATES.has(c) ? undefined : `an eu_vat tax ID requires an EU member state, not ${c}`,
  local: () => undefined,
};

const invalidValue = (reason: string): Failure => ({
  ok: false,
  param: "tax_id.value",
  message: `Invalid tax_id.value: ${reason}.`,
});

function nifError(code: string): Failure | undefined {
  const check = checkSpanishNif(code);
  if (check.ok) return undefined;
  if (check.reason === "control") {
    return invalidValue(`the control character of this ${NIF_NAMES[check.kind]} is wrong`);
  }
  return invalidValue("not a valid Spanish NIF (a DNI, NIE, K/L/M or entity NIF of 9 characters)");
}

/** The national part, checked and in python-stdnum's compact form (BE 9 → 10 digits), or why not. */
function vatBody(country: string, body: string): string | Failure {
  if (country === "ES") return nifError(body) ?? body;
  const vat = checkEuVat(country, body);
  return vat.ok ? vat.body : invalidValue(vat.message);
}

/** Accepts the number with or without its own prefix (EL or GR for Greece); stores it prefixed. */
function euVat(country: string, value: string): string | Failure {
  const prefix = vatPrefix(country);
  const given = value.slice(0, 2);
  const prefixed = given === prefix || (country === "GR" && given === "GR");
  const body = vatBody(country, prefixed ? value.slice(2) : value);
  if (typeof body === "string") return prefix + body;
  if (!prefixed && (given === "EL" || EU_MEMBER_STATES.has(given))) {
    return invalidValue(`the VAT prefix ${given} does not match country ${country}`);
  }
  return body;
}

/**
 * Validates and normalises a tax ID: the country is uppercased and must suit the type;
 * the value is uppercased with spaces, dots and hyphens removed, then checked per type.
 * Failures carry the `param` and message for a 400 `parameter_invalid`.
 *
 * @example
 * checkTaxId({ country: "es", type: "eu_vat", value: "b-1234567.4" });
 * // { ok: true, country: "ES", type: "eu_vat", value: "ESB12345674" }
 * checkTaxId({ country: "FR", type: "es_nif", value: "12345678Z" });
 * // { ok: false, param: "tax_id.country", message: "Invalid tax_id.country: an es_nif ..." }
 */
export function checkTaxId(input: { country: string; type: TaxIdType; value: string }): TaxIdCheck {
  const country = asciiUpperCase(input.country);
  if (country === undefined || !isCountryCode(country)) {
    return {
      ok: false,
      param: "tax_id.country",
      message: "Invalid tax_id.country: must be an ISO 3166-1 alpha-2 country code.",
    };
  }
  const mismatch = COUNTRY_RULE[input.type](country);
  if (mismatch) {
    return { ok: false, param: "tax_id.country", message: `Invalid tax_id.country: ${mismatch}.` };
  }

  const stripped = input.value.replace(/[ .-]/g, "");
  if (stripped === "") return invalidValue("must not be empty");
  const value = asciiUpperCase(stripped);
  if (value === undefined || !/^[A-Z0-9]+$/.test(value)) {
    return invalidValue("may contain only letters A-Z, digits, spaces, dots and hyphens");
  }

  let result: string | Failure;
  if (input.type === "es_nif") {
    const code = value.startsWith("ES") ? value.slice(2) : value;
    result = nifError(code) ?? code;
  } else if (input.type === "eu_vat") {
    result = euVat(country, value);
  } else {
    result = value.length <= 32 ? value : invalidValue("must be at most 32 characters");
  }

  return typeof result === "string" ? { ok: true, country, type: input.type, value: result } : result;
}
