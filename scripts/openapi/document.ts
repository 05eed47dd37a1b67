/**
 * The OpenAPI 3.1 document of the API, built from the route table (`ROUTES`): every operation's
 * path, parameters, request body and responses come from the zod schemas the app validates
 * and serializes with, so the document cannot describe a route other than the one that runs.
 * Build time only (scripts/openapi/build.ts): nothing here is bundled into a Worker.
 */
import { IDEMPOTENCY_HEADER } from "../../src/http/idempotency";
import { listParams } from "../../src/http/pagination";
import type { RouteDocs, Route as RuntimeRoute } from "../../src/http/route";
import { ROUTES } from "../../src/routes";
import { errorBody, errorCodesByStatus } from "./errors";
import { COMPONENTS, convertInput, convertOutputs, type JsonSchema } from "./schemas";
import { DESCRIPTION, IDEMPOTENCY_DESCRIPTION, REQUEST_EXAMPLES, TAG_DESCRIPTIONS, TITLE } from "./text";
import { webhooks } from "./webhooks";

/** The pagination parameters every list shares, as components. */
const PAGINATION = {
  limit: "Limit",
  starting_after: "StartingAfter",
  ending_before: "EndingBefore",
} as const;

/** `/v1/customers/:id` → `/v1/customers/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** `METHOD /path` in the routes' own (Hono) syntax: the key of `REQUEST_EXAMPLES`. */
export const routeKey = (route: Pick<Route, "method" | "path">) =>
  `${route.method.toUpperCase()} ${route.path}`;

/** "Create a customer" → "createCustomer"; "List events (optionally of one type)" → "listEvents". */
function operationId(summary: string): string {
  const words = summary
    .replace(/\(.*\)/, "")
    .replace(/['’]s\b/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w && !/^(a|an|the|of)$/i.test(w));
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]?.toUpperCase() + w.slice(1))).join("");
}

/** A schema's `description` moved up to the parameter, where reference pages show it. */
function parameter(name: string, where: "path" | "query", schema: JsonSchema, required: boolean) {
  const { description, ...rest } = schema;
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest };
}

function parameters(route: Route): unknown[] {
  const out: unknown[] = [];
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const params = route.request?.params ? convertInput(route.request.params) : { properties: {} };
  const declared = Object.keys(params.properties as object);
  if (names.join() !== declared.join()) {
    throw new Error(`${routeKey(route)}: path parameters ${names} but a params schema of ${declared}`);
  }
  for (const name of names) {
    const schema = (params.properties as Record<string, JsonSchema>)[name] as JsonSchema;
    out.push(parameter(name, "path", { description: "The object's id.", ...schema }, true));
  }
  if (route.request?.query) {
    const query = convertInput(route.request.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(query.properties as Record<string, JsonSchema>)) {
      const component = PAGINATION[name as keyof typeof PAGINATION];
      out.push(
        component
          ? { $ref: `#/components/parameters/${component}` }
          : parameter(name, "query", schema, required.has(name)),
      );
    }
  }
  if (route.method === "post" && !route.public) out.push({ $ref: "#/components/parameters/IdempotencyKey" });
  return out;
}

function requestBody(route: Route) {
  const json = route.request?.json;
  if (!json) return undefined;
  const schema = convertInput(json);
  const example = REQUEST_EXAMPLES[routeKey(route)];
  return {
    // An empty body reads as `{}`, so a body whose fields are all optional may be left out.
    required: ((schema.required as string[] | undefined) ?? []).length > 0,
    content: {
      "application/json": {
        schema,
        ...(example !== undefined && { examples: { example: { value: example } } }),
      },
    },
  };
}

type Outputs = ReturnType<typeof convertOutputs>;

function responses(route: Route, outputs: Outputs) {
  const out: Record<string, unknown> = {};
  const replayable = route.method === "post" && !route.public;
  for (const [status, spec] of Object.entries(route.responses)) {
    const content = spec.schema
      ? { "application/json": { schema: outputs.response(spec.schema) } }
      : spec.contentType
        ? { [spec.contentType]: {} }
        : undefined;
    out[status] = {
      description: spec.description,
      headers: {
        "Request-Id": { $ref: "#/components/headers/RequestId" },
        ...(replayable && { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } }),
      },
      ...(content && { content }),
    };
  }
  for (const [status, codes] of errorCodesByStatus(route)) {
    out[status] = {
      description: codes.map((code) => `\`${code}\``).join(", "),
      headers: {
        "Request-Id": { $ref: "#/components/headers/RequestId" },
        ...(status === 401 && { "WWW-Authenticate": { $ref: "#/components/headers/WWWAuthenticate" } }),
        ...((status === 429 || status === 503) && {
          "Retry-After": { $ref: "#/components/headers/RetryAfter" },
        }),
      },
      content: {
        "application/json": { schema: errorBody(outputs.components.Error as JsonSchema, status, codes) },
      },
    };
  }
  return out;
}

function operation(route: Route, outputs: Outputs) {
  const params = parameters(route);
  const body = requestBody(route);
  return {
    operationId: operationId(route.summary),
    summary: route.summary,
    tags: [route.tag],
    ...(route.public && { security: [] }),
    ...(params.length > 0 && { parameters: params }),
    ...(body && { requestBody: body }),
    responses: responses(route, outputs),
  };
}

function components(schemas: Record<string, JsonSchema>) {
  const list = convertInput(listParams);
  const pagination = Object.fromEntries(
    Object.entries(PAGINATION).map(([name, component]) => [
      component,
      parameter(name, "query", (list.properties as Record<string, JsonSchema>)[name] as JsonSchema, false),
    ]),
  );
  return {
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description:
          "An API key: `sk_test_…` (Test environment) or `sk_live_…` (Live). Local development keys: `sk_test_es_localdev`, `sk_test_global_localdev`.",
      },
    },
    parameters: {
      ...pagination,
      IdempotencyKey: {
        name: IDEMPOTENCY_HEADER,
        in: "header",
        required: false,
        description: IDEMPOTENCY_DESCRIPTION,
        schema: { type: "string", pattern: "^[\\x20-\\x7e]{1,255}$" },
      },
    },
    headers: {
      RequestId: {
        description:
          "This request's id (`req_…`); error bodies repeat it as `error.request_id`, except a replayed response (`Idempotent-Replayed: true`), which is the first one byte for byte.",
        required: true,
        schema: { type: "string", pattern: "^req_" },
      },
      RetryAfter: {
        description:
          "Seconds to wait before retrying: until the rate limit's count starts over (429), or the account's move is likely done (503).",
        required: true,
        schema: { type: "string", pattern: "^[0-9]+$" },
      },
      WWWAuthenticate: { description: '`Bearer realm="api"`.', required: true, schema: { type: "string" } },
      IdempotentReplayed: {
        description: "`true` when this is a stored response replayed for a retried `Idempotency-Key`.",
        schema: { type: "string", const: "true" },
      },
    },
    schemas,
  };
}

/** A route with its documentation, which every route must have (src/http/route.ts). */
type Route = RuntimeRoute & RouteDocs;

function documented(route: RuntimeRoute): Route {
  if (!route.summary || !route.tag || !route.responses) {
    throw new Error(
      `${route.method.toUpperCase()} ${route.path} has no documentation (tag, summary, responses)`,
    );
  }
  return route as Route;
}

/** The whole document. */
export function openApiDocument(version: string) {
  const routes = (ROUTES as readonly RuntimeRoute[]).map(documented);
  const outputs = convertOutputs([
    ...routes.flatMap((r) =>
      Object.values(r.responses).flatMap((spec) => (spec.schema ? [spec.schema] : [])),
    ),
  ]);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    if (paths[path][route.method]) throw new Error(`${routeKey(route)} is declared twice`);
    paths[path][route.method] = operation(route, outputs);
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] && { description: TAG_DESCRIPTIONS[name] }),
  }));
  if (Object.keys(COMPONENTS).length !== Object.keys(outputs.components).length)
    throw new Error("components");
  return {
    openapi: "3.1.1",
    info: { title: TITLE, version, description: DESCRIPTION },
    // Relative: the API answers on the host that serves this document.
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    webhooks: webhooks(),
    components: components(outputs.components),
  };
}
