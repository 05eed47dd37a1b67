import { env } from "cloudflare:workers";
import { app } from "./app";
import { config } from "./config";
import { shardNames } from "./db/shards";
import { softwareFor } from "./verifactu/software";

// The API Worker (wrangler.toml): HTTP only. Queue consumers and crons run in the background
// Worker (src/jobs.ts, wrangler.jobs.toml). A malformed `[vars]` value stops the Worker at
// startup instead of shifting behaviour, as does a SHARDS naming a binding that is not a D1
// database.
config(env);
shardNames(env);
// The VERI*FACTU software identity, whose NIF control character config.ts cannot check.
softwareFor(env, true);

// Only handlers may be exported here: workerd treats every named export as an entrypoint.
export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
