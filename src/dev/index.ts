import { createApp } from "../app";
import worker from "../index";
import jobs from "../jobs";
import { benchRoutes } from "./bench";

/**
 * The development entry (`npm start`, `bench/`): the production API Worker plus the benchmark
 * floors under `/__bench`, and the background Worker's cron, so that
 * `curl http://127.0.0.1:8787/cdn-cgi/local/scheduled` runs the sweeps (wrangler dev runs no
 * crons, and only this Worker listens). `wrangler deploy` bundles `src/index.ts`, which never
 * imports this.
 */
const app = createApp((app) => app.route("/__bench", benchRoutes));

export default { ...worker, fetch: app.fetch, scheduled: jobs.scheduled };
