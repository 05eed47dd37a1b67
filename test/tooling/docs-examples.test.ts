/**
 * Every curl example of README.md and docs/*.md runs against `npm start`, so none can rot.
 *
 * The convention (docs/README.md says it for writers):
 *
 * - A block fenced ```sh (or ```bash) that calls `curl` (outside a comment) is run. Every
 *   other block is not: ```console for commands to read but not run here (npm scripts,
 *   wrangler, deploying, a webhook receiver), ```json or ```text for output.
 * - Each curl command of a run block is annotated with the HTTP status it answers, after the
 *   command: `curl -s http://127.0.0.1:8787/v1/account -H "…"   # → 200`. The harness records
 *   the status of every curl the block runs (a `curl` shell function around the real one,
 *   docs-curl.sh) and
 *   compares that sequence with the block's annotations in order: a wrong status, a curl too
 *   many or too few, fails the test. So one annotation per curl call: no loops.
 * - A file's run blocks run in order in one bash (`set -euo pipefail`, working directory an
 *   empty temp folder), so a variable set in one block (a customer id) is there in the next,
 *   and a command that fails (jq on an error body) stops the file and fails the test. Each file
 *   starts from scratch (sets its own KEY) and can run again on the same local state.
 * - `http://127.0.0.1:8787` is rewritten to the test server's address; nothing else is.
 * - Write `-w`/`--write-out` as its own argument (the harness appends its own format to it).
 * - No npm, npx or wrangler command in a run block.
 *
 * Then every operation of the OpenAPI document must have been called by some example.
 * DOCS_API=<base> runs them against a server already up instead of starting one.
 *
 * The examples need bash, curl and jq. Without them this test is skipped with a warning on a
 * newcomer's machine; CI sets REQUIRE_CURL_JQ=1 (and installs them), so there it fails instead.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NpmStart, root, startNpmStart } from "./server";

const TOOLS = ["bash", "curl", "jq"];
const missing = TOOLS.filter(
  (tool) => spawnSync(tool, ["--version"], { encoding: "utf8" }).error !== undefined,
);
const SKIP = missing.length > 0 && !process.env.REQUIRE_CURL_JQ;
if (SKIP) {
  console.warn(
    `${missing.join(", ")} not found: the docs' curl examples are not run (apt-get install -y curl jq).`,
  );
}

/** The address the docs are written for. */
const DOCS_BASE = "http://127.0.0.1:8787";

/** README.md first, then docs/*.md (not docs/spec or docs/reference: copies of the product spec). */
const FILES = [
  "README.md",
  ...readdirSync(`${root}docs`)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

type Block = { lang: string; line: number; text: string };

/** The fenced code blocks of a markdown text, with their info string's first word and first line. */
function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: { fence: string; indent: number; lang: string; line: number; lines: string[] } | undefined;
  markdown.split("\n").forEach((line, index) => {
    if (open === undefined) {
      const start = line.match(/^( *)(`{3,}|~{3,})\s*([^\s`]*)/);
      if (start) {
        open = {
          fence: start[2] ?? "```",
          indent: start[1]?.length ?? 0,
          lang: start[3] ?? "",
          line: index + 1,
          lines: [],
        };
      }
      return;
    }
    if (line.trim().startsWith(open.fence) && line.trim().replace(/[`~]/g, "") === "") {
      blocks.push({ lang: open.lang, line: open.line, text: open.lines.join("\n") });
      open = undefined;
      return;
    }
    // The block's own indentation (a block inside a list item) is not part of its text.
    const indent = open.indent;
    open.lines.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
  });
  return blocks;
}

/** Whether a block is one of the examples this test runs: it calls curl (not only names it in a comment). */
const isRun = (block: Block) =>
  (block.lang === "sh" || block.lang === "bash") && /\bcurl\b/.test(block.text.replace(/(^|\s)#.*$/gm, ""));

/** The statuses a block's annotations expect (`# → 201`), in order. */
const annotations = (text: string) => [...text.matchAll(/#\s*→\s*(\d{3})\b/g)].map((m) => Number(m[1]));

/** Defines the `curl` the examples call: the real one, recording each request's status. */
const SHIM = `${root}test/tooling/docs-curl.sh`;

type Request = { status: number; method: string; url: string };
type Result = {
  /** What went wrong, one line per run block whose statuses differ from its annotations. */
  mismatches: string[];
  requests: Request[];
  exit: number | null;
  output: string;
};

/** Runs a markdown text's examples against `base`, as the convention above says. */
function runExamples(name: string, markdown: string, base: string): Result {
  const blocks = codeBlocks(markdown).filter(isRun);
  const problems: string[] = [];
  for (const block of blocks) {
    if (/^\s*(npm|npx|wrangler)\s/m.test(block.text)) {
      problems.push(
        `${name}:${block.line}: a run block with an npm, npx or wrangler command (fence it as console)`,
      );
    }
  }
  if (blocks.length === 0 || problems.length > 0)
    return { mismatches: problems, requests: [], exit: 0, output: "" };

  const dir = mkdtempSync(`${tmpdir()}/docs-examples-`);
  try {
    const record = `${dir}/.requests`;
    writeFileSync(record, "", "utf8");
    const script = [
      "set -euo pipefail",
      `source '${SHIM}'`,
      ...blocks.flatMap((block, i) => [`__docs_block ${i}`, block.text.replaceAll(DOCS_BASE, base)]),
      `__docs_block ${blocks.length}`,
    ].join("\n");
    writeFileSync(`${dir}/.examples.sh`, script, "utf8");
    const run = spawnSync("bash", [`${dir}/.examples.sh`], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, DOCS_RECORD: record },
      timeout: 110_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const byBlock: Request[][] = [];
    let current: Request[] | undefined;
    for (const line of readFileSync(record, "utf8").split("\n")) {
      const marker = line.match(/^# (\d+)$/);
      if (marker) {
        current = [];
        byBlock[Number(marker[1])] = current;
        continue;
      }
      const [status, method, url] = line.split(" ");
      if (current && status && method && url) current.push({ status: Number(status), method, url });
    }
    const mismatches: string[] = [];
    blocks.forEach((block, i) => {
      const expected = annotations(block.text);
      const got = byBlock[i];
      const sent = (got ?? []).map((r) => `${r.status} ${r.method} ${r.url.replace(base, "")}`);
      if (got === undefined) {
        mismatches.push(`${name}:${block.line}: not run (bash stopped before it)`);
      } else if (byBlock[i + 1] === undefined) {
        mismatches.push(
          `${name}:${block.line}: stopped in this block (bash exit ${run.status}); ran: ${sent.join(", ")}`,
        );
      } else if (JSON.stringify(expected) !== JSON.stringify(got.map((r) => r.status))) {
        mismatches.push(
          `${name}:${block.line}: expected ${JSON.stringify(expected)}, answered ${sent.join(", ")}`,
        );
      }
    });
    if (run.status !== 0 && mismatches.length === 0) mismatches.push(`${name}: bash exit ${run.status}`);
    const output = `${run.stdout.slice(-4000)}\n--- stderr ---\n${run.stderr.slice(-4000)}`;
    return { mismatches, requests: byBlock.flat(), exit: run.status, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the docs' code blocks", () => {
  it("are read with their language, indentation removed; only sh/bash blocks with curl run", () => {
    const markdown = [
      "text",
      "```sh",
      "curl -s http://127.0.0.1:8787/health   # → 200",
      "```",
      "- a list item:",
      "",
      "  ```bash",
      "  X=1",
      "  curl -s -X POST http://127.0.0.1:8787/v1/customers # → 401",
      "  ```",
      "```console",
      "curl -s https://api.example.com/v1/account",
      "```",
      "```sh",
      "npm test   # runs the curl examples",
      "```",
    ].join("\n");
    const blocks = codeBlocks(markdown);
    expect(blocks.map((b) => [b.lang, b.line])).toEqual([
      ["sh", 2],
      ["bash", 7],
      ["console", 11],
      ["sh", 14],
    ]);
    expect(blocks[1]?.text).toBe("X=1\ncurl -s -X POST http://127.0.0.1:8787/v1/customers # → 401");
    expect(blocks.map(isRun)).toEqual([true, true, false, false]);
    expect(annotations(blocks[1]?.text ?? "")).toEqual([401]);
  });
});

describe.skipIf(SKIP)("the curl examples of README.md and docs/*.md, against npm start", () => {
  let server: NpmStart;
  const requests: Request[] = [];

  beforeAll(async () => {
    // While writing docs, DOCS_API=http://127.0.0.1:8787 runs them against a server already up
    // (started with `npm start -- --var RATE_LIMITS:off`) instead of a fresh one.
    const api = process.env.DOCS_API;
    if (api) {
      server = { base: api, output: () => "", stop: async () => {} };
      return;
    }
    // The examples of one file follow each other faster than a person types: the limit of 100
    // requests per key in 10 s would answer some of them 429.
    server = await startNpmStart("docs-examples", ["--var", "RATE_LIMITS:off"]);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it("bash, curl and jq are installed (CI installs curl and jq)", () => {
    expect(missing).toEqual([]);
  });

  it("a wrong annotation, a curl without one, and a failing command fail the check", () => {
    const wrong = runExamples(
      "wrong.md",
      "```sh\ncurl -s -o /dev/null http://127.0.0.1:8787/health   # → 404\n```\n",
      server.base,
    );
    expect(wrong.mismatches).toEqual(["wrong.md:1: expected [404], answered 200 GET /health"]);
    const unannotated = runExamples(
      "extra.md",
      "```sh\ncurl -s -o /dev/null http://127.0.0.1:8787/health   # → 200\ncurl -s -o /dev/null http://127.0.0.1:8787/health\n```\n",
      server.base,
    );
    expect(unannotated.mismatches).toEqual([
      "extra.md:1: expected [200], answered 200 GET /health, 200 GET /health",
    ]);
    const failing = runExamples(
      "fails.md",
      "```sh\nID=$(curl -s http://127.0.0.1:8787/v1/account | jq -er .id)   # → 401\n```\n\n```sh\ncurl -s http://127.0.0.1:8787/health   # → 200\n```\n",
      server.base,
    );
    expect(failing.exit).not.toBe(0);
    expect(failing.mismatches).toEqual([
      "fails.md:1: stopped in this block (bash exit 1); ran: 401 GET /v1/account",
      "fails.md:5: not run (bash stopped before it)",
    ]);
  }, 30_000);

  for (const file of FILES) {
    it(`${file}: every curl example answers the status it is annotated with`, () => {
      const result = runExamples(file, readFileSync(`${root}${file}`, "utf8"), server.base);
      requests.push(...result.requests);
      expect(result.mismatches, `${result.output}\n--- server ---\n${server.output().slice(-4000)}`).toEqual(
        [],
      );
      expect(result.exit).toBe(0);
    }, 120_000);
  }

  it("every operation of the OpenAPI document is called by some example", () => {
    const document = JSON.parse(readFileSync(`${root}.build/public/v1/openapi.json`, "utf8")) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const methods = ["get", "post", "patch", "put", "delete"];
    const uncalled = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => methods.includes(method))
        .filter((method) => {
          const template = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
          return !requests.some(
            (r) => r.method === method.toUpperCase() && template.test(new URL(r.url).pathname),
          );
        })
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(uncalled).toEqual([]);
  });
});
