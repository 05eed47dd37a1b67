import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";

// The suite sends many requests per key, and all its keyless ones from one address (no
// CF-Connecting-IP): the real limiters keep wrangler.toml's namespaces and periods but
// their limits are raised out of reach. The limits are tested through the small
// TEST_RATE_LIMITER instead (test/integration/rate-limits.test.ts).
const { ratelimits } = unstable_readConfig({
  config: fileURLToPath(new URL("./wrangler.toml", import.meta.url)),
});
const raised = Object.fromEntries(
  ratelimits.map(({ name, namespace_id, simple }) => [
    name,
    { namespace_id, simple: { ...simple, limit: 1_000_000_000 } },
  ]),
);

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          // Tests read each request's D1 cost from the D1-Rows-Read header.
          EXPOSE_DB_METRICS: "true",
          TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url))),
          // What wrangler.toml configures, for the test that Retry-After matches it.
          TEST_WRANGLER_RATE_LIMITS: ratelimits,
        },
        // Tax ID checks go to a queue without a consumer: a test runs the consumer itself on
        // what was sent (test/helpers/verifications.ts), so no check of another test's Tax ID
        // completes in the background and writes behind its back.
        queueProducers: {
          VERIFICATIONS: { queueName: "tax-id-verifications-held" },
          VERIFACTU_SUBMISSIONS: { queueName: "verifactu-submissions-held" },
        },
        ratelimits: {
          ...raised,
          // Period 60 so that a burst of a few requests rarely straddles a window.
          TEST_RATE_LIMITER: { namespace_id: "9001", simple: { limit: 3, period: 60 } },
        },
      },
    })),
  ],
  test: {
    // The suite runs in workerd; test/tooling runs in Node, for checks that start programs
    // (xmllint validating the VERI*FACTU XML against AEAT's XSDs). `npm test` runs both.
    projects: [
      {
        extends: true,
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/tooling/**"],
          setupFiles: ["./test/setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/tooling/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
