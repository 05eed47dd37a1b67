import * as z from "zod";
import { ERROR_STATUS } from "./errors";

/**
 * Response shapes every resource shares: timestamps, the list envelope, the error envelope. Written by hand, strict, so the OpenAPI
 * document says exactly what the serializers return.
 */

export const timestamp = /* @__PURE__ */ z.string().describe("ISO 8601 timestamp, UTC.");

/** The list envelope of every list endpoint. */
export function listOf<T extends z.ZodType>(item: T) {
  return z
    .object({
      object: z.literal("list"),
      url: z.string(),
      has_more: z.boolean(),
      data: z.array(item),
    })
    .strict();
}

/**
 * The body of every error response, as `errorResponse` (./errors.ts) writes it. Only the OpenAPI
 * generator and the tests read it, and `@__PURE__` lets the bundler leave it out of the
 * Workers: its descriptions cost their bundles nothing.
 */
export const errorEnvelope = /* @__PURE__ */ z
  .object({
    error: z
      .object({
        type: z
          .enum(["invalid_request_error", "authentication_error", "rate_limit_error", "api_error"])
          .describe(
            "The kind of error, by status: `authentication_error` (401), `rate_limit_error` (429), `api_error` (5xx), else `invalid_request_error`.",
          ),
        code: z
          .enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS])
          .describe("What went wrong, for programs to branch on; each operation lists its codes per status."),
        message: z.string().describe("What went wrong, for people; its wording may change."),
        param: z.string().optional().describe("Dotted path of the offending field: `lines.3.taxes.1.rule`."),
        request_id: z.string().meta({
          description:
            "The id of the request that failed: this response's `Request-Id`, or the first request's on a replay (`Idempotent-Replayed: true`).",
          pattern: "^req_",
        }),
      })
      .strict(),
  })
  .strict();
