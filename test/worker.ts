/**
 * The suite's Worker: the API's `fetch` (src/index.ts) and the background Worker's `queue` and
 * `scheduled` (src/jobs.ts) in one module, as vitest.config.ts loads it with the background
 * Worker's configuration (its bindings are the API's plus the queue consumers). So the real
 * local queues deliver to the consumers inside the tests' isolate, where outbound `fetch` is
 * mocked at the network boundary. What a request leaves running after its response is tracked
 * (test/helpers/after-response.ts).
 */
import api from "../src/index";
import jobs from "../src/jobs";
import { trackedContext } from "./helpers/after-response";

export default {
  ...jobs,
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => api.fetch(request, env, trackedContext(ctx)),
};
