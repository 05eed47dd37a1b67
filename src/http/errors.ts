import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { logError } from "../lib/log";
import type { AppEnv } from "./context";

/**
 * Every error code the API can return, with its HTTP status. The map is exhaustive:
 * adding a code without a status does not compile.
 */
export const ERROR_STATUS = {
  parameter_invalid: 400,
  parameter_missing: 400,
  parameter_unknown: 400,
  json_invalid: 400,
  account_profile_incomplete: 400,
  customer_address_required: 400,
  series_mismatch: 400,
  issue_date_out_of_order: 400,
  issue_date_before_verifactu: 400,
  simplified_limit_exceeded: 400,
  payment_terms_not_applicable: 400,
  payment_exceeds_amount_remaining: 400,
  idempotency_key_reused: 400,
  destination_limit_reached: 400,
  api_key_missing: 401,
  api_key_invalid: 401,
  resource_missing: 404,
  resource_conflict: 409,
  invoice_prefix_taken: 409,
  invoice_prefix_locked: 409,
  resource_in_use: 409,
  idempotency_key_in_use: 409,
  invoice_not_draft: 409,
  invoice_not_payable: 409,
  payment_not_applicable: 409,
  invoice_not_voidable: 409,
  invoice_has_payments: 409,
  invoice_corrected: 409,
  verifactu_not_resubmittable: 409,
  verifactu_not_ready: 409,
  issuer_tax_id_in_use: 409,
  verifactu_declaration_unavailable: 409,
  invoice_not_issued: 409,
  einvoice_missing_data: 409,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  storage_budget_exhausted: 429,
  api_error: 500,
  account_moving: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorType = "invalid_request_error" | "authentication_error" | "rate_limit_error" | "api_error";

function typeOf(status: number): ErrorType {
  if (status === 401) return "authentication_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/**
 * The one error the handlers throw. `param` is the dotted path of the offending field.
 *
 * @example
 * throw new ApiError("parameter_invalid", "City is required.", { param: "address.city" });
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: (typeof ERROR_STATUS)[ErrorCode];
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.type = typeOf(this.status);
    this.param = options.param;
    this.headers = options.headers;
  }
}

/** `404 resource_missing` for an id that does not exist for the caller. */
export function notFound(resource: string, id: string, param?: string): ApiError {
  return new ApiError("resource_missing", `No such ${resource}: '${id}'.`, param ? { param } : {});
}

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  c.set("errorCode", error.code);
  const body = {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param !== undefined && { param: error.param }),
      request_id: c.get("requestId"),
    },
  };
  return c.json(body, error.status, error.headers);
}

/** The code of an `HTTPException` thrown by Hono or a middleware, by its status. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: "parameter_invalid",
  401: "api_key_invalid",
  404: "resource_missing",
  409: "resource_conflict",
  413: "request_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** Hono `onError`: known errors keep their shape; anything else is a 500 without details. */
export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) return errorResponse(c, err);
  const code = err instanceof HTTPException ? HTTP_EXCEPTION_CODES[err.status] : undefined;
  if (code) return errorResponse(c, new ApiError(code, err.message || "The request was rejected."));
  logError("request_error", err, { request_id: c.get("requestId") });
  return errorResponse(
    c,
    new ApiError("api_error", "Something went wrong on our side. Retry later, quoting the request id."),
  );
}
