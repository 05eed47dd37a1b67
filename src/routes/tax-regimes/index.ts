import { cors } from "hono/cors";
import { listTaxRegimesRoute } from "./list";
import { retrieveTaxRegimeRoute } from "./retrieve";

export const taxRegimeRoutes = [listTaxRegimesRoute, retrieveTaxRegimeRoute];

/**
 * The public catalog is readable from any browser origin (preflight included); a bad
 * `Authorization` header is ignored, as no key is needed.
 */
export const catalogCors = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD", "OPTIONS"],
  allowHeaders: ["If-None-Match", "Authorization"],
  exposeHeaders: ["ETag", "Request-Id"],
  maxAge: 86_400,
});
