import { defineConfig } from "drizzle-kit";

// Offline generation only: `npm run db:generate` writes flat SQL into migrations/,
// which `wrangler d1 migrations apply` and the test pool both read.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
});
