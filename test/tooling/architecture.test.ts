/**
 * The floors of src/ (docs/architecture.md): every import points down or stays on its floor.
 * Entry points → routes/ → domain folders → shared layers (http/ → aeat/ → lib/) → db/ → the
 * base (config, constants, contracts). Type-only imports count: a type that a lower floor needs
 * lives on that floor or below.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const SRC = decodeURIComponent(new URL("../../src/", import.meta.url).pathname);

/** Lower numbers are higher floors. Shared layers are ordered among themselves too. */
const FLOORS: Record<string, number> = {
  entry: 0,
  routes: 1,
  domain: 2,
  http: 3.0,
  aeat: 3.1,
  lib: 3.2,
  db: 4,
  base: 5,
};

const ENTRY_FILES = new Set(["index.ts", "app.ts", "jobs.ts", "pdf/worker.ts"]);
const BASE = new Set(["config.ts", "constants", "contracts"]);
const DOMAIN = new Set([
  "account",
  "customers",
  "payment-instructions",
  "payments",
  "invoices",
  "pdf",
  "balance",
  "events",
  "event-destinations",
  "webhooks",
  "tax-ids",
  "party",
  "verification",
  "verifactu",
  "einvoice",
  "tax",
  "retention",
  "archive",
]);

/** The floor of a file under src/, by its path relative to src/. */
function floorOf(file: string): string {
  const top = file.split("/")[0] as string;
  if (ENTRY_FILES.has(file) || top === "dev") return "entry";
  if (BASE.has(top)) return "base";
  if (DOMAIN.has(top)) return "domain";
  if (top in FLOORS) return top;
  throw new Error(
    `${file} is on no floor: add its folder to test/tooling/architecture.test.ts and docs/architecture.md`,
  );
}

function sourceFiles(dir = ""): string[] {
  return readdirSync(SRC + dir, { recursive: true })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => (dir ? `${dir}/${path}` : path));
}

/** Resolves a relative specifier of `from` to a file under src/ (extension and index optional). */
function resolve(from: string, spec: string, files: Set<string>): string | null {
  const parts = from.split("/").slice(0, -1);
  for (const piece of spec.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  const base = parts.join("/");
  return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => files.has(candidate)) ?? null;
}

type Edge = { from: string; to: string };

function importEdges(): Edge[] {
  const files = sourceFiles();
  const known = new Set(files);
  const edges: Edge[] = [];
  for (const file of files) {
    const text = readFileSync(SRC + file, "utf8");
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const to = resolve(file, spec as string, known);
      if (to) edges.push({ from: file, to });
    }
  }
  return edges;
}

describe("architecture", () => {
  const edges = importEdges();

  it("reads the import graph (a parser that found nothing would pass everything)", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: "routes/customers/create.ts", to: "customers/create.ts" });
  });

  it("every import points down a floor or stays on its own", () => {
    const up = edges
      .filter(({ from, to }) => (FLOORS[floorOf(to)] as number) < (FLOORS[floorOf(from)] as number))
      .map(({ from, to }) => `${from} (${floorOf(from)}) → ${to} (${floorOf(to)})`);
    expect(up).toEqual([]);
  });

  it("db/ imports no feature module", () => {
    const out = edges.filter(
      ({ from, to }) => from.startsWith("db/") && !["db", "base"].includes(floorOf(to)),
    );
    expect(out).toEqual([]);
  });

  it("route files only declare: each is under 60 lines and no domain code imports routes/", () => {
    const long = sourceFiles("routes").filter(
      (file) => readFileSync(SRC + file, "utf8").split("\n").length > 60,
    );
    expect(long).toEqual([]);
  });
});
