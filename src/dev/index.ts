import { createApp } from "../app";
import worker from "../index";
import { benchRoutes } from "./bench";

/**
 * The development entry (`npm start`, `bench/`): the production Worker plus the benchmark
 * floors under `/__bench`. `wrangler deploy` bundles `src/index.ts`, which never imports this.
 */
const app = createApp((app) => app.route("/__bench", benchRoutes));

export default { ...worker, fetch: app.fetch } satisfies typeof worker;
