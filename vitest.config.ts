import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";

// The suite sends many requests per key, and all its keyless ones from one address (no
// CF-Connecting-IP): the real limiters keep wrangler.toml's namespaces and periods but
// their limits are raised out of reach. The limits are tested through the small
// TEST_RATE_LIMITER instead (test/integration/api/rate-limits.test.ts).
const { ratelimits } = unstable_readConfig({
  config: fileURLToPath(new URL("./wrangler.toml", import.meta.url)),
});
// The [vars] as production sets them: `npm start` writes development values to .dev.vars,
// which the pool would read too, so they are passed explicitly (EXPOSE_DB_METRICS is then
// turned on below).
const { vars } = unstable_readConfig({
  config: fileURLToPath(new URL("./wrangler.jobs.toml", import.meta.url)),
});
const raised = Object.fromEntries(
  ratelimits.map(({ name, namespace_id, simple }) => [
    name,
    { namespace_id, simple: { ...simple, limit: 1_000_000_000 } },
  ]),
);

// The PDF renderer is a second Worker (wrangler.pdf.toml) behind the PDF_RENDERER service
// binding. The suite runs it for real as an auxiliary Worker, built the way `wrangler deploy`
// builds it: its bundle and the font files it imports as binary modules.
const PDF_BUILD = fileURLToPath(new URL("./.build/pdf-renderer", import.meta.url));

function buildPdfRenderer() {
  const wrangler = fileURLToPath(new URL("./node_modules/wrangler/bin/wrangler.js", import.meta.url));
  execFileSync(
    process.execPath,
    [wrangler, "deploy", "--dry-run", "--outdir", PDF_BUILD, "-c", "wrangler.pdf.toml"],
    { env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio: "pipe" },
  );
  const fonts = readdirSync(PDF_BUILD).filter((file) => file.endsWith(".ttf"));
  return [
    { type: "ESModule" as const, path: join(PDF_BUILD, "worker.js") },
    ...fonts.map((file) => ({ type: "Data" as const, path: join(PDF_BUILD, file) })),
  ];
}

// The OpenAPI document and the /docs page (scripts/openapi/), generated as `wrangler dev` and
// `wrangler deploy` generate them. test/helpers/openapi.ts checks every response against the
// document (TEST_OPENAPI); test/tooling reads the files.
function buildOpenApi() {
  const path = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  execFileSync(
    process.execPath,
    [path("./node_modules/tsx/dist/cli.mjs"), path("./scripts/openapi/build.ts")],
    {
      stdio: "pipe",
    },
  );
  return JSON.parse(readFileSync(new URL("./.build/public/v1/openapi.json", import.meta.url), "utf8"));
}
const openApi = buildOpenApi();
// Built once per run, before the pool starts: the pool may ask for its options more than once.
const pdfRenderer = buildPdfRenderer();

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      // The background Worker's configuration (the API's bindings plus the queue consumers and
      // the cron), with test/worker.ts serving both Workers' handlers.
      wrangler: { configPath: "./wrangler.jobs.toml" },
      main: "./test/worker.ts",
      miniflare: {
        workers: [
          {
            name: "invoicing-api-pdf",
            modules: pdfRenderer,
            modulesRoot: PDF_BUILD,
            compatibilityDate: "2026-08-01",
          },
        ],
        // Two shards and a directory of its own (wrangler.toml has one database for all three),
        // so the suite proves that requests, consumers and sweeps keep to the caller's shard
        // (test/integration/operations/shards.test.ts); every other test's accounts live on DB.
        d1Databases: { DIRECTORY: { id: "directory-test" }, DB_2: { id: "shard-2-test" } },
        bindings: {
          ...vars,
          SHARDS: "DB,DB_2",
          // Tests read each request's D1 cost from the D1-Rows-Read header.
          EXPOSE_DB_METRICS: "true",
          // A VERI*FACTU producer identity, as production configures it (APP_ENV stays
          // "production"), so that Live flows have one (src/verifactu/software.ts).
          VERIFACTU_PRODUCER_NAME: "Productora de Pruebas SL",
          VERIFACTU_PRODUCER_NIF: "B87654323",
          VERIFACTU_SYSTEM_NAME: "invoicing-api",
          VERIFACTU_SYSTEM_ID: "IT",
          VERIFACTU_SYSTEM_VERSION: "0.1.0-test",
          VERIFACTU_INSTALLATION_NUMBER: "test-1",
          VERIFACTU_PRODUCER_ADDRESS: "Calle de las Pruebas 1, 28001 Madrid, España",
          VERIFACTU_DECLARATION_PLACE: "Madrid, España",
          VERIFACTU_DECLARATION_DATE: "2026-01-15",
          TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url))),
          // What wrangler.toml configures, for the test that Retry-After matches it.
          TEST_WRANGLER_RATE_LIMITS: ratelimits,
          TEST_OPENAPI: openApi,
        },
        // Tax ID checks, VERI*FACTU submissions and PDFs go to queues without a consumer: a test
        // runs the consumer itself (test/helpers/verifications.ts, verifactu.ts, pdf.ts), so no
        // other test's work completes in the background and writes behind its back.
        queueProducers: {
          VERIFICATIONS: { queueName: "tax-id-verifications-held" },
          VERIFACTU_SUBMISSIONS: { queueName: "verifactu-submissions-held" },
          INVOICE_PDFS: { queueName: "invoice-pdfs-held" },
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
