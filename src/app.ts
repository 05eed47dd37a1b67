// hono/tiny: Hono with its smallest router (PatternRouter), 2.4 KiB gzipped less than the
// default RegExpRouter. Its match tries every pattern, a tenth of a light GET's CPU: matches are
// remembered per method and path (`rememberMatches`), which costs a few lines, not 2.4 KiB.
import { Hono } from "hono/tiny";
import { config } from "./config";
import { createDb, type DbUsage } from "./db/client";
import { BOOKMARK_HEADER, requestSession } from "./db/session";
import { auth, noStore } from "./http/auth";
import { jsonBody } from "./http/body";
import type { AppEnv } from "./http/context";
import { ApiError, errorResponse, onError } from "./http/errors";
import { limitCatalog } from "./http/rate-limit";
import { requestId } from "./http/request-id";
import { mount } from "./http/route";
import { ROUTES } from "./routes";
import { catalogCors } from "./routes/tax-regimes";

/**
 * The API: public routes first (the middleware after them never runs for them), then
 * `no-store`, the D1 usage counter, the API key (its rate limits, and the caller's shard), the
 * D1 session on that shard, the body guard, and the authenticated routes.
 * `extend` adds routes before the 404 (the development entry's benchmark floors).
 */
export function createApp(extend?: (app: Hono<AppEnv>) => void) {
  const app = new Hono<AppEnv>();
  app.use("*", requestId);
  extend?.(app);

  // After CORS, so that a browser can read the 429 too.
  app.use("/v1/tax-regimes/*", catalogCors, limitCatalog);
  app.use("/v1/verifactu/declaration", catalogCors, limitCatalog);
  mount(
    app,
    ROUTES.filter((r) => r.public),
  );

  app.use("/v1/*", noStore);
  app.use("/v1/*", async (c, next) => {
    // Local development and tests only: what this request cost in D1 before its response
    // (directory included; what runs in `waitUntil` after it is not).
    const metrics = config(c.env).exposeDbMetrics;
    const usage: DbUsage = { rowsRead: 0, rowsWritten: 0, roundTrips: metrics ? 0 : undefined };
    c.set("dbUsage", usage);
    await next();
    if (metrics) {
      c.res.headers.set("D1-Rows-Read", String(usage.rowsRead));
      c.res.headers.set("D1-Rows-Written", String(usage.rowsWritten));
      c.res.headers.set("D1-Round-Trips", String(usage.roundTrips));
    }
  });
  // Authentication first: a caller without a valid key learns nothing about the body rules.
  // It also routes the request to the caller's shard (c.env), where its D1 session opens.
  app.use("/v1/*", auth);
  app.use("/v1/*", async (c, next) => {
    const session = requestSession(c.env.DB, c.req.method, c.req.header(BOOKMARK_HEADER) ?? null);
    c.set("db", createDb(session, c.get("dbUsage")));
    await next();
    const bookmark = session.getBookmark();
    if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  });
  app.use("/v1/*", jsonBody);
  mount(
    app,
    ROUTES.filter((r) => !r.public),
  );

  app.notFound((c) =>
    errorResponse(
      c,
      new ApiError("resource_missing", `Unrecognized request URL (${c.req.method}: ${c.req.path}).`),
    ),
  );
  app.onError(onError);
  rememberMatches(app);
  return app;
}

/** Paths whose matches are kept; past it the memory starts over, so ids in paths cannot grow it. */
const REMEMBERED_PATHS = 1_000;

/**
 * PatternRouter tries every route's pattern on every request, 10-18 % of a catalog GET's CPU
 * samples (bench/results/floors.md); a method and path seen before get the handlers and parameters they
 * matched then (the route table does not change once built).
 */
function rememberMatches(app: Hono<AppEnv>): void {
  const router = app.router;
  const match = router.match.bind(router);
  const seen = new Map<string, ReturnType<typeof match>>();
  router.match = (method, path) => {
    const key = `${method} ${path}`;
    let result = seen.get(key);
    if (result === undefined) {
      if (seen.size >= REMEMBERED_PATHS) seen.clear();
      result = match(method, path);
      seen.set(key, result);
    }
    return result;
  };
}

export const app = createApp();
