import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import worker from "../../src/index";
import { checkResponse } from "./openapi";
import type {
  Account,
  ApiError,
  Customer,
  Destination,
  DestinationWithSecret,
  Event,
  List,
  PaymentInstruction,
  TaxId,
  TaxRegime,
} from "./types";

export type ApiResponse<T = unknown> = { status: number; body: T; headers: Headers; text: string };

/** A list path, with or without a query string. */
type Collection<Base extends string> = Base | `${Base}?${string}`;

/**
 * The success body of `method path`, read from the path's shape so that call sites need no
 * type argument: `api.get(`/v1/customers/${id}`)` gives a `Customer`. An error body is typed
 * by `expectError`; DELETE answers 204 without a body; a path not listed here is `unknown`.
 */
export type BodyOf<M extends string, P extends string> = M extends "DELETE"
  ? unknown
  : P extends "/v1/account"
    ? Account
    : P extends Collection<"/v1/customers">
      ? M extends "POST"
        ? Customer
        : List<Customer>
      : P extends `/v1/customers/${string}`
        ? Customer
        : P extends Collection<"/v1/payment-instructions">
          ? M extends "POST"
            ? PaymentInstruction
            : List<PaymentInstruction>
          : P extends `/v1/payment-instructions/${string}`
            ? PaymentInstruction
            : P extends Collection<"/v1/event-destinations">
              ? M extends "POST"
                ? DestinationWithSecret
                : List<Destination>
              : P extends `/v1/event-destinations/${string}`
                ? DestinationWithSecret
                : P extends Collection<"/v1/events">
                  ? List<Event>
                  : P extends `/v1/events/${string}`
                    ? Event
                    : P extends Collection<"/v1/tax-regimes">
                      ? List<TaxRegime>
                      : P extends `/v1/tax-regimes/${string}`
                        ? TaxRegime
                        : P extends `/v1/tax-ids/${string}`
                          ? TaxId
                          : unknown;

type Options = {
  key?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
  /** The Worker's bindings for this request only (a [vars] value changed), background work awaited. */
  bindings?: Env;
};

/** The Worker's answer, through its own bindings or, with `bindings`, those (after its background work). */
async function send(
  url: string,
  init: RequestInit,
  bindings?: Env,
): Promise<{ res: Response; text: string }> {
  if (!bindings) {
    const res = await exports.default.fetch(url, init);
    return { res, text: await res.text() };
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, init), bindings, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

/**
 * Calls the worker like an HTTP client would. `key: null` sends no Authorization header.
 * Every response is checked against the OpenAPI document (`checkResponse`): a status, header
 * or field the document does not describe fails the test that received it.
 *
 * @example
 * const res = await request("GET", "/v1/tax-regimes/es"); // res.body: TaxRegime
 */
export async function request<M extends string, P extends string>(
  method: M,
  path: P,
  body?: unknown,
  options: Options = {},
): Promise<ApiResponse<BodyOf<M, P>>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let payload: string | undefined = options.rawBody;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["content-type"] ??= "application/json";
  }
  const { res, text } = await send(
    `http://api.test${path}`,
    { method, headers, body: payload },
    options.bindings,
  );
  checkResponse(method, path, { status: res.status, headers: res.headers, text });
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as BodyOf<M, P>, headers: res.headers, text };
}

/**
 * A client bound to one API key; each call's body is typed by its path (see `BodyOf`).
 *
 * @example
 * const api = client(account.testKey);
 * const res = await api.get(`/v1/customers/${id}`); // res.body: Customer
 * const ready = client(account.liveKey, liveReadyBindings); // this Worker's bindings changed
 */
export function client(key: string, bindings?: Env) {
  return {
    get: <P extends string>(path: P) => request("GET", path, undefined, { key, bindings }),
    post: <P extends string>(path: P, body?: unknown) => request("POST", path, body, { key, bindings }),
    patch: <P extends string>(path: P, body?: unknown) => request("PATCH", path, body, { key, bindings }),
    del: <P extends string>(path: P) => request("DELETE", path, undefined, { key, bindings }),
  };
}

export type ApiClient = ReturnType<typeof client>;

/** The statuses the API answers with its error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/**
 * Fails with the whole response in the message, so a red test shows what came back. After
 * an error status, `res.body` is typed as the error envelope (`expectError` checks it all).
 *
 * @example
 * expectStatus(res, 409);
 * expect(res.body.error).toMatchObject({ code: "invoice_prefix_taken" });
 */
export function expectStatus(res: ApiResponse, status: ErrorStatus): asserts res is ApiResponse<ApiError>;
export function expectStatus(res: ApiResponse, status: number): void;
export function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${res.text}`);
  }
}
