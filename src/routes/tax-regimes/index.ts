import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/context";
import { listTaxRegimesRoute } from "./list";
import { retrieveTaxRegimeRoute } from "./retrieve";

export const taxRegimeRoutes = [listTaxRegimesRoute, retrieveTaxRegimeRoute];

/** What hono/cors answered with `origin: "*"`, the catalog's methods and headers, `exposeHeaders` and a day's `maxAge`. */
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag,Request-Id" };
const PREFLIGHT = {
  ...CORS,
  "Access-Control-Max-Age": "86400",
  "Access-Control-Allow-Methods": "GET,HEAD,OPTIONS",
  "Access-Control-Allow-Headers": "If-None-Match,Authorization",
  Vary: "Access-Control-Request-Headers",
};

/**
 * The public catalog is readable from any browser origin (preflight included); a bad
 * `Authorization` header is ignored, as no key is needed. The headers are set once, on the final
 * response (200, 304 or error): hono/cors set them on a placeholder response built before the
 * route and merged into the route's, up to a tenth of a catalog GET's CPU (bench/results/floors.md).
 */
export const catalogCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: PREFLIGHT });
  await next();
  for (const [name, value] of Object.entries(CORS)) c.res.headers.set(name, value);
};
