/**
 * Holds every response the tests receive to the OpenAPI document (`GET /v1/openapi.json`, as
 * scripts/openapi/build.ts generates it; vitest.config.ts passes it in as TEST_OPENAPI): the
 * operation is found by method and path template, then its status, required headers, content
 * type and JSON body are checked, so an undocumented status or field fails the test that
 * received it. An error's body is held to its status's schema like any other (the whole
 * envelope, strict, its `code` one of those the operation lists under that status), and to
 * what a schema cannot say: its code's status is the one answered, its `request_id` is the
 * `Request-Id` header. `request()` (api.ts) calls this for every response; what a test sends
 * around it (a raw byte or stream body, swapped rate limiters) integration/openapi.test.ts
 * sends once through this check too.
 */

import { env } from "cloudflare:workers";
import { Validator } from "@cfworker/json-schema";
import { ERROR_STATUS, type ErrorCode } from "../../src/http/errors";

type Schema = Record<string, unknown>;
type Media = { schema?: Schema };
type Header = { required?: boolean } | { $ref: string };
type ResponseSpec = {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, Media>;
};
type OperationSpec = { operationId: string; responses: Record<string, ResponseSpec> };
export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OperationSpec>>;
  webhooks: Record<
    string,
    Record<string, OperationSpec & { requestBody: { content: Record<string, Media> } }>
  >;
  components: { schemas: Record<string, Schema>; headers: Record<string, { required?: boolean }> } & Record<
    string,
    unknown
  >;
};

export const openApi = (env as unknown as { TEST_OPENAPI: OpenApiDocument }).TEST_OPENAPI;

type Operation = { method: string; template: string; pattern: RegExp; spec: OperationSpec };

const operations: Operation[] = Object.entries(openApi.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, spec]) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
    spec,
  })),
);

/** The operation `METHOD path` calls, if the document has one. */
export function operationOf(method: string, path: string): Operation | undefined {
  const pathname = new URL(path, "http://api.test").pathname;
  return operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(pathname));
}

const validators = new Map<Schema, Validator>();

/**
 * The first problems of `value` against `schema` (which may refer to `#/components/schemas/…`),
 * or null when it is valid.
 *
 * @example
 * schemaErrors({ $ref: "#/components/schemas/Customer" }, body); // "#/email: …" or null
 */
export function schemaErrors(schema: Schema, value: unknown): string | null {
  let validator = validators.get(schema);
  if (!validator) {
    // The components go along under their own pointer, so that `$ref`s resolve in the root.
    const root = structuredClone({ ...schema, components: { schemas: openApi.components.schemas } });
    validator = new Validator(root, "2020-12", false);
    validators.set(schema, validator);
  }
  const { valid, errors } = validator.validate(value);
  if (valid) return null;
  return errors
    .slice(0, 3)
    .map((e) => `${e.instanceLocation}: ${e.error} (${e.keywordLocation})`)
    .join("; ");
}

type Received = { status: number; headers: Headers; text: string };

function fail(what: string, res: Received, problem: string): never {
  throw new Error(
    `OpenAPI: ${what} answered ${res.status}: ${problem}\nThe response: ${res.text.slice(0, 2000)}`,
  );
}

function mediaTypeOf(res: Received): string {
  return (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * What the schema cannot say of an error body: the status its code belongs to (ERROR_STATUS)
 * is the one answered, and its `request_id` is this response's `Request-Id`, unless the
 * response is a replay (`Idempotent-Replayed`), the first response byte for byte.
 */
function checkErrorBody(what: string, res: Received, body: unknown): void {
  const error = (body as { error?: { code?: ErrorCode; request_id?: string } } | null)?.error;
  const code = error?.code as ErrorCode;
  if (ERROR_STATUS[code] !== res.status)
    fail(what, res, `code ${code} belongs to status ${ERROR_STATUS[code]}`);
  const requestId = res.headers.get("request-id");
  if (res.headers.get("idempotent-replayed") !== "true" && error?.request_id !== requestId)
    fail(what, res, `error.request_id is not the Request-Id header (${requestId})`);
}

/**
 * A request no operation matches (an unknown route or method, a CORS preflight) must still
 * answer the API's error envelope, with the status of its code; a preflight of a documented
 * path is answered by the CORS layer, without a body.
 */
const ERROR_ENVELOPE = { $ref: "#/components/schemas/Error" };

function checkUndocumented(method: string, path: string, res: Received): void {
  const what = `${method} ${path} (no such operation)`;
  const pathname = new URL(path, "http://api.test").pathname;
  if (method.toUpperCase() === "OPTIONS" && operations.some((op) => op.pattern.test(pathname))) {
    if (res.status !== 204 || res.text !== "") fail(what, res, "a CORS preflight answers 204 without a body");
    return;
  }
  if (mediaTypeOf(res) !== "application/json") fail(what, res, "not the JSON error envelope");
  const body = JSON.parse(res.text) as unknown;
  const errors = schemaErrors(ERROR_ENVELOPE, body);
  if (errors) fail(what, res, `not the error envelope: ${errors}`);
  checkErrorBody(what, res, body);
}

/**
 * Throws unless the document allows this response of `METHOD path`: its status, the headers it
 * marks required, its content type, and its JSON body against the schema. The error names the
 * operation, the status and the first schema errors.
 *
 * @example
 * checkResponse("GET", `/v1/customers/${id}`, { status: 200, headers, text });
 */
export function checkResponse(method: string, path: string, res: Received): void {
  const op = operationOf(method, path);
  if (!op) {
    checkUndocumented(method, path, res);
    return;
  }
  const what = `${op.method} ${op.template} (${op.spec.operationId})`;
  const spec = op.spec.responses[String(res.status)];
  if (!spec) {
    fail(what, res, `a status the document does not list (${Object.keys(op.spec.responses).join(", ")})`);
  }
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    const resolved =
      "$ref" in header ? openApi.components.headers[header.$ref.split("/").pop() as string] : header;
    if (resolved?.required && !res.headers.has(name)) fail(what, res, `no ${name} header`);
  }
  const isError = res.status >= 400;
  if (!spec.content) {
    if (isError) fail(what, res, "an error status the document gives no body");
    if (res.text !== "") fail(what, res, "a body, where the document says there is none");
    return;
  }
  const mediaType = mediaTypeOf(res);
  const media = spec.content[mediaType];
  if (!media) {
    fail(what, res, `content type "${mediaType}", not one of ${Object.keys(spec.content).join(", ")}`);
  }
  if (!media.schema) {
    if (isError) fail(what, res, "an error status the document gives no schema");
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail(what, res, "a body that is not JSON");
  }
  const errors = schemaErrors(media.schema, body);
  if (errors) fail(what, res, `a body the document does not allow: ${errors}`);
  if (isError) checkErrorBody(what, res, body);
}
