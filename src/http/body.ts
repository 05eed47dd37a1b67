import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** Documented request body limit. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * No request schema nests deeper than a few levels. V8 parses JSON of any depth but cannot
 * serialize it back (JSON.stringify overflows its stack), which the idempotency hash does: a
 * body nested past this is refused up front, never a 500.
 */
const MAX_DEPTH = 64;

/** Whether valid JSON `text` opens more than `max` arrays or objects inside one another. */
function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("request_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  },
});

/**
 * Guards every request that can carry a body: at most 1 MiB (413), `application/json`
 * when not empty (415), valid UTF-8 JSON (400). The parsed body is the `body` variable that
 * `validateJson` reads; an empty body reads as `{}`, so body-less actions such as
 * `POST /…/enable` need no content type.
 */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
  return limit(c, async () => {
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength === 0) {
      c.set("body", {});
      return next();
    }
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ApiError(
        "unsupported_media_type",
        "Request bodies must be JSON, sent with `Content-Type: application/json`.",
      );
    }
    let text: string;
    try {
      // Strict: a lenient decode would turn invalid UTF-8 into U+FFFD and store that.
      text = UTF8.decode(bytes);
    } catch {
      throw new ApiError("json_invalid", "The request body is not valid UTF-8.");
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError("json_invalid", "The request body is not valid JSON.");
    }
    if (text.length > 2 * MAX_DEPTH && deeperThan(text, MAX_DEPTH)) {
      throw new ApiError(
        "json_invalid",
        `The request body nests arrays and objects more than ${MAX_DEPTH} deep.`,
      );
    }
    c.set("body", body);
    await next();
  });
};
