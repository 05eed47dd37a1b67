import { createApp } from "../app";
import worker from "../index";
import jobs from "../jobs";
import { benchRoutes } from "./bench";
import { floor, record } from "./floors";

/**
 * The development entry (`npm start`, `bench/`): the production API Worker plus the benchmark
 * floors under `/__bench`, and the background Worker's cron, so that
 * `curl http://127.0.0.1:8787/cdn-cgi/local/scheduled` runs the sweeps (wrangler dev runs no
 * crons, and only this Worker listens). `wrangler deploy` bundles `src/index.ts`, which never
 * imports this.
 *
 * The floors under `/__bench/floor/` are answered before the app, with no framework (see
 * `floors.ts`); a request with `Bench-Record: <name>` is served as usual, its D1 batches
 * recorded for `/__bench/floor/replay/<name>`.
 */
const app = createApp((app) => app.route("/__bench", benchRoutes));

export default {
  ...worker,
  fetch(request: Request, env?: Env, ctx?: ExecutionContext) {
    if (env && ctx) {
      if (request.url.includes("/__bench/floor/")) return floor(request, env, ctx);
      const name = request.headers.get("bench-record");
      if (name) return record(name, request, env, ctx, app);
    }
    return app.fetch(request, env, ctx);
  },
  scheduled: jobs.scheduled,
};
