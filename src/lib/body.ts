import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

/** Documented request body limit. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("request_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  },
});

/**
 * Guards every request that can carry a body: at most 1 MiB (413), `application/json`
 * when not empty (415), valid JSON (400). An empty body reads as `{}`, so body-less
 * actions such as `POST /…/enable` need no content type.
 */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
  return limit(c, async () => {
    const text = await c.req.text();
    if (text.length === 0) {
      // Validators downstream read the cached text; give them an empty object.
      // biome-ignore lint/suspicious/noExplicitAny: Hono types the cache as values, it stores promises.
      (c.req.bodyCache as any).text = Promise.resolve("{}");
      return next();
    }
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ApiError(
        "unsupported_media_type",
        "Request bodies must be JSON, sent with `Content-Type: application/json`.",
      );
    }
    try {
      JSON.parse(text);
    } catch {
      throw new ApiError("json_invalid", "The request body is not valid JSON.");
    }
    await next();
  });
};
