import { codeToken, type FetchLike, postText } from "../aeat/http";
import { EU_MEMBER_STATES, vatPrefix } from "../lib/countries";
import type { Registry, RegistryAnswer, RegistryQuery } from "./registry";
import { registryText } from "./text";

/** The VIES REST API's check (swagger "Vies on-the-Web Endpoint", `POST /check-vat-number`). */
export const VIES_CHECK_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number";
export const VIES_TIMEOUT_MS = 10_000;

export type ViesOptions = { url?: string; timeoutMs?: number };

const unavailable = (reason: string): RegistryAnswer => ({ kind: "unavailable", reason: `vies:${reason}` });
const result = (valid: boolean, name: unknown = null, address: unknown = null): RegistryAnswer => ({
  kind: "result",
  valid,
  name: valid ? registryText(name) : null,
  address: valid ? registryText(address) : null,
});

/** `ESB12345674` → `{countryCode: "ES", vatNumber: "B12345674"}`; Greece (GR) is `EL`. */
function viesRequest(query: RegistryQuery): { countryCode: string; vatNumber: string } | undefined {
  if (query.type !== "eu_vat" || !EU_MEMBER_STATES.has(query.country)) return undefined;
  const countryCode = vatPrefix(query.country);
  const vatNumber = query.value.slice(2);
  if (!query.value.startsWith(countryCode) || !/^[A-Z0-9]{2,12}$/.test(vatNumber)) return undefined;
  return { countryCode, vatNumber };
}

/**
 * The codes in an answer: `errorWrappers[].error` (the POST endpoint's CommonResponse) and a
 * `userError` other than VALID/INVALID (the GET endpoint's shape). A code that is not
 * code-shaped is `unknown_error`: its text is never quoted, it may carry the number.
 */
function errorCodes(body: Record<string, unknown>): string[] {
  const wrappers = Array.isArray(body.errorWrappers) ? body.errorWrappers : [];
  const raw = wrappers.map((w: unknown) => (w as { error?: unknown } | null)?.error);
  if (body.userError !== undefined && body.userError !== "VALID" && body.userError !== "INVALID") {
    raw.push(body.userError);
  }
  return raw.map((code) => codeToken(code, /^[A-Z0-9_]{1,64}$/) ?? "unknown_error");
}

/** Reads a VIES answer. Only `valid`/`isValid` or INVALID_INPUT are verdicts; anything else is unavailable. */
function readAnswer(status: number, text: string): RegistryAnswer {
  // Rate limiting and server errors say nothing about the number, whatever the body says.
  if (status === 429 || status >= 500) return unavailable(`http_${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return status >= 200 && status < 300 ? unavailable("unexpected_body") : unavailable(`http_${status}`);
  }
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const codes = errorCodes(fields);
  if (codes.length > 0) {
    // INVALID_INPUT is VIES refusing the country code or the number's form for that member
    // state. We send only an EU prefix and a number that passed our own format and check-digit
    // rules (src/tax-ids/check.ts, and `viesRequest` refuses anything else), so what is left is
    // the member state's own rule rejecting the number: it cannot be registered there, and
    // asking again gives the same answer. That is a verdict on the number, so it is invalid.
    // Every other code says something about VIES, not the number: unavailable.
    const transient = codes.find((code) => code !== "INVALID_INPUT");
    return transient === undefined ? result(false) : unavailable(transient);
  }
  if (status < 200 || status >= 300) return unavailable(`http_${status}`);
  const valid = fields.valid ?? fields.isValid;
  const contradicted = fields.userError === (valid ? "INVALID" : "VALID");
  if (typeof valid !== "boolean" || contradicted) {
    return unavailable("unexpected_body");
  }
  return result(valid, fields.name, fields.address);
}

/**
 * The EU VIES registry for `eu_vat` Tax IDs, through its REST API. A registry error is never
 * read as "invalid": network errors, timeouts, 429, 5xx, every error code but INVALID_INPUT
 * and any body it cannot read are `unavailable` (retried by the caller). `reason` is an id-like
 * token (`vies:MS_UNAVAILABLE`, `vies:http_503`, `vies:timeout`), safe to log.
 *
 * @example
 * await viesRegistry().check({ country: "GR", type: "eu_vat", value: "EL094259216" }, 1);
 * // sends {"countryCode":"EL","vatNumber":"094259216"}
 */
export function viesRegistry(
  fetcher: FetchLike = (url, init) => fetch(url, init),
  { url = VIES_CHECK_URL, timeoutMs = VIES_TIMEOUT_MS }: ViesOptions = {},
): Registry {
  return {
    async check(query) {
      const request = viesRequest(query);
      if (!request) return unavailable("query_malformed");
      const headers = { "Content-Type": "application/json", Accept: "application/json" };
      const answer = await postText(fetcher, url, headers, JSON.stringify(request), timeoutMs);
      return answer.ok ? readAnswer(answer.status, answer.body) : unavailable(answer.reason);
    },
  };
}
