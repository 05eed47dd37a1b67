/**
 * Which error codes, so which statuses, each operation can answer: those its kind of route
 * answers through the shared middleware (src/app.ts, src/http/route.ts), plus the codes its
 * own rules answer (`errors` on the route); and the error body of each such status.
 */
import { ERROR_STATUS, type ErrorCode } from "../../src/http/errors";
import type { Route } from "../../src/http/route";
import type { JsonSchema } from "./schemas";

/** The error codes of one operation, grouped by HTTP status, statuses ascending. */
export function errorCodesByStatus(route: Route): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>();
  const add = (...more: ErrorCode[]) => {
    for (const code of more) codes.add(code);
  };
  // Anything unexpected is a 500 without details.
  add("api_error");
  // Every /v1 route is rate limited: per key, per address without a valid key, or (the public
  // catalog) per address. /health is the unlimited floor.
  if (route.path.startsWith("/v1/")) add("rate_limited");
  if (!route.public) {
    add("api_key_missing", "api_key_invalid");
    // The body guard runs on every authenticated request that is not a GET, a write of an
    // account moving between shards is refused (docs/scaling.md), and so is one past its
    // environment's write budget for the day (src/http/write-budget.ts).
    if (route.method !== "get")
      add(
        "json_invalid",
        "request_too_large",
        "unsupported_media_type",
        "account_moving",
        "storage_budget_exhausted",
      );
  }
  // Every route refuses unknown query parameters, and every route that is not a GET unknown
  // body fields, schema or not (src/http/route.ts).
  add("parameter_unknown");
  if (route.request?.query) add("parameter_invalid");
  if (route.request?.json) add("parameter_invalid", "parameter_missing");
  if (route.path.includes("/:")) add("resource_missing");
  if (route.method === "post" && !route.public) {
    // Idempotency-Key: a malformed key, a key reused with another request, a key still running.
    add("parameter_invalid", "idempotency_key_reused", "idempotency_key_in_use");
  }
  add(...(route.errors ?? []));

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The error `type` every status answers with (`typeOf` in src/http/errors.ts). */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/**
 * The body of one error status of one operation: the whole envelope (`envelope`, the `Error`
 * component, which is src/http/schemas.ts `errorEnvelope`), with `type` the status's and `code`
 * one of `codes`. Self-contained rather than `allOf` the component and a narrowing: a client
 * or renderer that merges `allOf` shallowly would read an `error` of `type` and `code` only.
 *
 * @example
 * errorBody(components.Error, 404, ["resource_missing"]);
 * // { type: "object", properties: { error: { properties: { type: { const: "invalid_request_error" },
 * //   code: { enum: ["resource_missing"] }, message, param, request_id }, required, … } }, … }
 */
export function errorBody(envelope: JsonSchema, status: number, codes: readonly ErrorCode[]): JsonSchema {
  const body = structuredClone(envelope) as {
    properties: { error: { properties: Record<string, JsonSchema> } };
  } & JsonSchema;
  const fields = body.properties?.error?.properties;
  if (!fields?.type || !fields.code || !fields.message || !fields.request_id) {
    throw new Error("openapi errors: the Error component is not the error envelope");
  }
  const { enum: _types, ...type } = fields.type;
  const { enum: _codes, ...code } = fields.code;
  fields.type = { ...type, const: errorType(status) };
  fields.code = { ...code, enum: [...codes] };
  return body;
}
