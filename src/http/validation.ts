import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type * as z from "zod";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** JSON Pointer-ish dotted path: `address.city`, `enabled_events.2`. */
function dotted(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/** A message without its final period, so it can end a sentence of ours. */
function sentence(message: string): string {
  return message.replace(/\.+$/, "");
}

function issueToError(issue: z.core.$ZodIssue, input: unknown): ApiError {
  const path = dotted(issue.path);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "";
    const param = path ? `${path}.${key}` : key;
    return new ApiError("parameter_unknown", `Received unknown parameter: ${param}.`, { param });
  }
  // Whatever the check (a type, an enum's options…), an absent field is a missing one.
  const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
  if (missing) {
    return new ApiError("parameter_missing", `Missing required parameter: ${path}.`, { param: path });
  }
  if (issue.path.length === 0) {
    return new ApiError("parameter_invalid", `The request ${sentence(issue.message)}.`);
  }
  return new ApiError("parameter_invalid", `Invalid ${path}: ${sentence(issue.message)}.`, { param: path });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** The API error for a failed parse: its first issue, with `param`. */
function toApiError(error: z.core.$ZodError, input: unknown): ApiError {
  const first = error.issues[0];
  return first ? issueToError(first, input) : new ApiError("parameter_invalid", "Invalid request.");
}

/**
 * `@hono/zod-validator` with the API's error shape (path parameters and query): routes are
 * mounted through this, so no route can answer a validation failure in another format.
 */
export function validate(target: keyof ValidationTargets, schema: z.ZodType): MiddlewareHandler<AppEnv> {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw toApiError(result.error, result.data);
  }) as unknown as MiddlewareHandler<AppEnv>;
}

/**
 * The JSON body's validator: the body the `jsonBody` middleware already parsed (once), with
 * the same error shape as `validate`.
 */
export function validateJson(schema: z.ZodType): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.get("body");
    const result = await schema.safeParseAsync(body);
    if (!result.success) throw toApiError(result.error, body);
    c.req.addValidatedData("json", result.data as object);
    await next();
  };
}
