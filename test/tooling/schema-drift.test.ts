/**
 * The Drizzle schema (src/db/schema) and the committed migrations describe the same database:
 * `drizzle-kit generate`, run against a copy of migrations/, finds nothing to migrate. A schema
 * change committed without its migration (`npm run db:generate`) fails here, not on the next
 * developer's machine. (Triggers and the search index are hand-written SQL in the migrations,
 * outside what drizzle-kit compares; the integration tests run on those migrations.)
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { filesUnder, root, runNode } from "./local-state";

const out = mkdtempSync(`${tmpdir()}/schema-drift-`);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the schema and the migrations", () => {
  it("drizzle-kit generate finds nothing to migrate", () => {
    cpSync(`${root}migrations`, out, { recursive: true });
    const before = filesUnder(out);
    const run = runNode([
      `${root}node_modules/drizzle-kit/bin.cjs`,
      "generate",
      // Relative: drizzle-kit puts "./" before the path it is given.
      ...["--dialect", "sqlite", "--schema", "./src/db/schema/index.ts", "--out", relative(root, out)],
    ]);
    expect(run.status, run.stderr).toBe(0);
    // drizzle-kit reports on standard error.
    expect(run.stdout + run.stderr).toContain("No schema changes, nothing to migrate");
    expect(filesUnder(out)).toEqual(before);
  }, 60_000);
});
