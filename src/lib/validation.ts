import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import * as z from "zod";
import { ApiError } from "./errors";

// C0 and C1 control characters (tab and newline included) are never valid in a field.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A single-line string: valid Unicode (no lone surrogate), no control characters,
 * 1 to `max` characters. What passes is stored and returned exactly as sent.
 */
export function text(max: number) {
  return z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.isWellFormed(), "must be valid Unicode")
    .refine((s) => !CONTROL.test(s), "must not contain control characters");
}

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

/**
 * `@hono/zod-validator` with the API's error shape: every route validates through this,
 * so no route can answer a validation failure in another format.
 */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const first = result.error.issues[0];
      throw first ? issueToError(first, result.data) : new ApiError("parameter_invalid", "Invalid request.");
    }
  });
}
