/**
 * The OpenAPI document as scripts/openapi/ generates it (vitest.config.ts runs the build
 * first): valid for an independent validator, current, and complete in what every operation
 * of a kind must say. The API Worker ships none of it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { PUBLIC_DIR } from "../../scripts/openapi/docs-page";
import { openApiDocument, openApiPath, routeKey } from "../../scripts/openapi/document";
import { REQUEST_EXAMPLES } from "../../scripts/openapi/text";
import { EVENT_TYPES } from "../../src/constants";
import { ERROR_STATUS } from "../../src/http/errors";
import type { Route } from "../../src/http/route";
import { ROUTES } from "../../src/routes";
import { env, WRANGLER } from "./openapi-server";

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: any }> }>;
};

const root = new URL("../../", import.meta.url);
const served = JSON.parse(readFileSync(join(PUBLIC_DIR, "v1/openapi.json"), "utf8"));
const { version } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const routes = ROUTES as readonly Route[];
const operationOf = (r: Route) => served.paths[openApiPath(r.path)]?.[r.method] as Operation;
const codesOf = (op: Operation, status: number): string[] =>
  op.responses[status]?.content?.["application/json"]?.schema.properties.error.properties.code.enum ?? [];

const withoutEnum = ({ enum: _, ...rest }: Record<string, unknown>) => rest;

/** The error `type` of a status, as src/http/errors.ts assigns it. */
const errorTypeOf = (status: number) =>
  status === 401
    ? "authentication_error"
    : status === 429
      ? "rate_limit_error"
      : status >= 500
        ? "api_error"
        : "invalid_request_error";

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document for an independent validator (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(served));
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // Every $ref resolves.
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("the served file is the generator's output for the code as it is", () => {
    expect(served).toEqual(openApiDocument(version));
  });

  it("every route of the route table is an operation, with a unique operationId", () => {
    const ids = routes.map((r) => operationOf(r)?.operationId);
    expect(ids.filter((id) => id === undefined)).toEqual([]);
    expect(new Set(ids).size).toBe(routes.length);
  });

  it("the error envelope lists every error code, and every operation answers each code under its status", () => {
    expect(served.components.schemas.Error.properties.error.properties.code.enum).toEqual(
      Object.keys(ERROR_STATUS),
    );
    for (const r of routes) {
      const op = operationOf(r);
      for (const [status, spec] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(spec.content ?? {}), `${routeKey(r)} ${status}`).toEqual(["application/json"]);
        for (const code of codesOf(op, Number(status))) {
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${routeKey(r)} ${code}`).toBe(
            Number(status),
          );
        }
      }
      expect(codesOf(op, 500), routeKey(r)).toEqual(["api_error"]);
    }
  });

  it("every error response is the whole envelope, self-contained: the Error component with its type and codes narrowed", () => {
    const envelope = served.components.schemas.Error;
    const fields = envelope.properties.error;
    // What src/http/errors.ts `errorResponse` writes, `param` only when there is one.
    expect(Object.keys(fields.properties)).toEqual(["type", "code", "message", "param", "request_id"]);
    expect(fields.required).toEqual(["type", "code", "message", "request_id"]);
    expect([envelope.additionalProperties, fields.additionalProperties]).toEqual([false, false]);
    let count = 0;
    for (const r of routes) {
      for (const [status, spec] of Object.entries(operationOf(r).responses)) {
        if (Number(status) < 400) continue;
        const schema = spec.content?.["application/json"]?.schema;
        const what = `${routeKey(r)} ${status}`;
        // No allOf or $ref to merge: a client that reads only this schema reads it all.
        expect(JSON.stringify(schema), what).not.toMatch(/"allOf"|"\$ref"/);
        const { type, code, ...rest } = schema.properties.error.properties;
        const { type: anyType, code: anyCode, ...same } = fields.properties;
        expect(rest, what).toEqual(same);
        expect(type, what).toEqual({ ...withoutEnum(anyType), const: errorTypeOf(Number(status)) });
        expect(code, what).toEqual({ ...withoutEnum(anyCode), enum: expect.any(Array) });
        expect(code.enum.length, what).toBeGreaterThan(0);
        expect(
          { ...schema, properties: { error: { ...schema.properties.error, properties: fields.properties } } },
          what,
        ).toEqual(envelope);
        count++;
      }
    }
    expect(count).toBeGreaterThan(routes.length * 3);
  });

  it("authenticated operations use the bearer scheme and answer 401; public ones need no key", () => {
    expect(served.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(served.security).toEqual([{ bearerAuth: [] }]);
    for (const r of routes) {
      const op = operationOf(r);
      if (r.public) {
        expect(op.security, routeKey(r)).toEqual([]);
        expect(op.responses[401], routeKey(r)).toBeUndefined();
      } else {
        expect(op.security, routeKey(r)).toBeUndefined();
        expect(codesOf(op, 401), routeKey(r)).toEqual(["api_key_missing", "api_key_invalid"]);
        expect(op.responses[401]?.headers).toHaveProperty("WWW-Authenticate");
      }
    }
  });

  it("every /v1 operation answers 429 rate_limited with Retry-After, and every authenticated write storage_budget_exhausted", () => {
    for (const r of routes.filter((r) => r.path.startsWith("/v1/"))) {
      const op = operationOf(r);
      const writes = !r.public && r.method !== "get";
      expect(codesOf(op, 429), routeKey(r)).toEqual(
        writes ? ["rate_limited", "storage_budget_exhausted"] : ["rate_limited"],
      );
      expect(op.responses[429]?.headers?.["Retry-After"]).toEqual({
        $ref: "#/components/headers/RetryAfter",
      });
    }
  });

  it("operations with an id answer 404 resource_missing", () => {
    for (const r of routes.filter((r) => r.path.includes("/:"))) {
      expect(codesOf(operationOf(r), 404), routeKey(r)).toContain("resource_missing");
    }
  });

  it("every authenticated POST takes Idempotency-Key and answers its 400 and 409", () => {
    for (const r of routes.filter((r) => r.method === "post" && !r.public)) {
      const op = operationOf(r);
      expect(op.parameters, routeKey(r)).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
      expect(codesOf(op, 400), routeKey(r)).toContain("idempotency_key_reused");
      expect(codesOf(op, 409), routeKey(r)).toContain("idempotency_key_in_use");
    }
    expect(served.components.parameters.IdempotencyKey).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
    });
  });

  it("every list takes the pagination parameters", () => {
    const lists = routes.filter(
      (r) => r.request?.query && "starting_after" in (r.request.query as any).shape,
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const r of lists) {
      expect(operationOf(r).parameters, routeKey(r)).toEqual(
        expect.arrayContaining(
          ["Limit", "StartingAfter", "EndingBefore"].map((p) => ({ $ref: `#/components/parameters/${p}` })),
        ),
      );
    }
  });

  it("request and response bodies come from the routes' schemas, requests as accepted and responses as returned", () => {
    const create = served.paths["/v1/customers"].post as Operation;
    const body = create.requestBody?.content["application/json"]?.schema as any;
    expect(body).toMatchObject({ type: "object", additionalProperties: false, required: ["name", "tax_id"] });
    expect(body.properties.tax_id.properties.country.pattern).toBe("^[A-Za-z]{2}$");
    expect(create.responses[201]?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Customer",
    });
    expect(served.components.schemas.Customer.additionalProperties).toBe(false);
    const line = (served.paths["/v1/invoices"].post as Operation).requestBody?.content["application/json"]
      ?.schema as any;
    expect(line.properties.lines.items.properties.taxes.items.anyOf).toHaveLength(2);
    expect(served.paths["/v1/invoices/{id}/pdf"].get.responses[200].content).toEqual({
      "application/pdf": {},
    });
  });

  it("every request example is accepted by its route's own schema", () => {
    for (const [key, example] of Object.entries(REQUEST_EXAMPLES)) {
      const r = routes.find((r) => routeKey(r) === key);
      expect(r?.request?.json, key).toBeDefined();
      const parsed = r?.request?.json?.safeParse(example);
      expect(parsed?.success, `${key}: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
    }
  });

  it("webhooks: one per event type, the thin event of that type, signed in Service-Signature", () => {
    expect(Object.keys(served.webhooks)).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) {
      const post = served.webhooks[type].post;
      expect(post.parameters).toContainEqual(
        expect.objectContaining({ name: "Service-Signature", in: "header", required: true }),
      );
      expect(post.requestBody.content["application/json"].schema.allOf).toEqual([
        { $ref: "#/components/schemas/ThinEvent" },
        { type: "object", properties: { type: { const: type } } },
      ]);
    }
    expect(Object.keys(served.components.schemas.ThinEvent.properties).sort()).toEqual([
      "created_at",
      "id",
      "live",
      "object",
      "related_object",
      "type",
    ]);
  });
});

describe("the API Worker's bundle", () => {
  it("holds none of the generator or the reference page, and stays under 100 KiB gzipped", () => {
    const out = mkdtempSync(join(tmpdir(), "api-bundle-"));
    execFileSync(WRANGLER, ["deploy", "--dry-run", "--outdir", out], {
      cwd: root.pathname,
      env,
      stdio: "pipe",
    });
    const bundle = readdirSync(out)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(out, f), "utf8"))
      .join("\n");
    // Ours: the document's shape, the generator's text, the reference page.
    expect(bundle).not.toMatch(/components\/schemas|operationId|createApiReference|Invoicing API reference/);
    // Library code wrangler.toml's [alias] swaps for stubs (about 7.6 KiB gzipped): zod's JSON
    // Schema converter, drizzle's Postgres columns, its relational queries and its unused SQLite
    // columns. Their stubs are
    // in; a string of each left-out module is not (an alias key that stops matching brings it back).
    expect(bundle).toContain("JSON Schema generation is not part of the API Worker's build");
    expect(bundle).toContain("drizzle's relational queries are not part of the API Worker's build");
    expect(bundle).toContain("drizzle's blob, numeric, real and custom SQLite columns are not part");
    expect(bundle).not.toMatch(
      /draft-2020-12|PgEnumColumn|PgTable|There are multiple relations|SQLiteAsyncRelationalQuery|SQLiteBlobJson|SQLiteNumericBuilder|SQLiteRealBuilder|SQLiteCustomColumn/,
    );
    expect(gzipSync(bundle).length).toBeLessThan(100 * 1024);
  }, 60_000);
});
