import type { Context, Hono, MiddlewareHandler } from "hono";
import * as z from "zod";
import type { AppEnv } from "./context";
import type { ErrorCode } from "./errors";
import { idempotency } from "./idempotency";
import { validate, validateJson } from "./validation";

export type HttpMethod = "get" | "post" | "patch" | "delete";

type RequestSchemas = { params?: z.ZodType; query?: z.ZodType; json?: z.ZodType };
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the validated path parameters, query and JSON body. */
export type RouteInput<R extends RequestSchemas> = {
  params: Out<R["params"]>;
  query: Out<R["query"]>;
  json: Out<R["json"]>;
};

export type ResponseSpec = { description: string; schema?: z.ZodType; contentType?: string };

declare global {
  /**
   * `true` in Worker builds (wrangler.toml's `[define]`), undefined everywhere else (the
   * OpenAPI generator, the tests). Documentation is for the generator only, and the 100 KiB
   * budget has no room for it: a route's is written `...(!globalThis.OMIT_API_DOCS && { tag,
   * summary, responses, errors })` and folds away at build time with the response schemas it
   * names (declared `@__PURE__`); a request field's is `.meta(globalThis.OMIT_API_DOCS ? {} :
   * {…})`. The generated document is the same either way.
   */
  var OMIT_API_DOCS: true | undefined;
}

/**
 * What the OpenAPI document says of an operation, beyond its request schemas. Present wherever
 * the generator runs; absent from the Worker's bundle (see `OMIT_API_DOCS`).
 */
export type RouteDocs = {
  summary: string;
  /** The resource, for grouping in the reference. */
  tag: string;
  /** Success responses by status; error responses are the shared envelope. */
  responses: Record<number, ResponseSpec>;
  /**
   * The error codes this operation's own rules answer, beyond those every route of its kind
   * can (validation, API key, rate limit, unknown id, body guard, `Idempotency-Key`): the
   * OpenAPI document lists each operation's codes by status, and the tests hold every error
   * response to that list.
   */
  errors?: readonly ErrorCode[];
};

/**
 * One operation: its method and path, the schemas of what it accepts and returns, and its
 * handler. The app mounts these, and the OpenAPI generator (a build-time script) reads the
 * same objects, so the document cannot describe a route other than the one that runs.
 */
export type Route<R extends RequestSchemas = RequestSchemas> = Partial<RouteDocs> & {
  method: HttpMethod;
  /** Hono syntax: `/v1/customers/:id`. */
  path: string;
  /** No API key (the public catalog). */
  public?: true;
  request?: R;
  /** Middleware of this route alone, after validation (e.g. CORS on the public catalog). */
  middleware?: MiddlewareHandler<AppEnv>[];
  handler: (c: Context<AppEnv>, input: RouteInput<R>) => Response | Promise<Response>;
};

/**
 * Declares an operation; the handler's `input` is typed by the request schemas.
 *
 * @example
 * export const retrieveCustomerRoute = route({
 *   method: "get",
 *   path: "/v1/customers/:id",
 *   ...(!globalThis.OMIT_API_DOCS && {
 *     tag: "Customers",
 *     summary: "Retrieve a customer",
 *     responses: { 200: { description: "The customer", schema: customerObject } },
 *   }),
 *   request: { params: idParams },
 *   handler: async (c, { params }) => c.json(serializeCustomer(await findCustomer(…, params.id))),
 * });
 */
export function route<R extends RequestSchemas>(def: Route<R>): Route<R> {
  return def;
}

/** No parameters at all: what a route without a query or body schema accepts. */
const NONE = z.object({}).strict();

/** The `:id` of a resource path. */
export const idParams = z.object({ id: z.string() }).strict();

/**
 * Mounts routes on the app. Validation runs through `validate`/`validateJson`, the one hook
 * that turns a schema failure into the API's error, so no route can answer in another shape.
 */
export function mount(app: Hono<AppEnv>, routes: readonly Route<RequestSchemas>[]): void {
  for (const r of routes) {
    // Every authenticated POST accepts `Idempotency-Key`; the claim comes before validation.
    const steps: MiddlewareHandler<AppEnv>[] = r.method === "post" && !r.public ? [idempotency] : [];
    if (r.request?.params) steps.push(validate("param", r.request.params));
    // A route without a query or body schema takes none: an unknown parameter is a 400
    // there too, never silently ignored.
    steps.push(validate("query", r.request?.query ?? NONE));
    if (r.request?.json) steps.push(validateJson(r.request.json));
    else if (r.method !== "get") steps.push(validateJson(NONE));
    steps.push(...(r.middleware ?? []));
    app.on(r.method.toUpperCase(), [r.path], ...steps, (c) => {
      // `valid` is typed per Hono route; the route's own schemas type `input` instead.
      const valid = (target: "param" | "query" | "json") => c.req.valid(target as never) as never;
      c.set("handlerStarted", true);
      return r.handler(c, {
        params: r.request?.params ? valid("param") : undefined,
        query: r.request?.query ? valid("query") : undefined,
        json: r.request?.json ? valid("json") : undefined,
      } as RouteInput<RequestSchemas>);
    });
  }
}
