/**
 * GET /v1/openapi.json and the reference page at /docs, as `wrangler dev` serves them (static
 * assets, before the Worker: the workerd tests cannot reach them), and /docs driven in a real
 * headless Chromium (Debian's `chromium`, through puppeteer-core): the operations render, a
 * request example shows, and nothing is loaded from any host but the server itself.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_DIR } from "../../scripts/openapi/docs-page";
import { type DevServer, startDevServer } from "./openapi-server";

// The slice of puppeteer-core's API used here. Its own types pull in all of @types/node, which
// would clash with the Workers types of the rest of test/ (see node.d.ts).
type Page = {
  setViewport(viewport: { width: number; height: number }): Promise<void>;
  on(event: "request", listener: (request: { url(): string }) => void): void;
  on(event: "console", listener: (message: { type(): string; text(): string }) => void): void;
  on(event: "pageerror", listener: (error: Error) => void): void;
  goto(url: string, options: { waitUntil: "networkidle0"; timeout: number }): Promise<unknown>;
  waitForFunction(fn: string, options: { timeout: number }): Promise<unknown>;
  evaluate(fn: string): Promise<unknown>;
  screenshot(options: { path: string }): Promise<unknown>;
};
type Browser = { newPage(): Promise<Page>; close(): Promise<void> };
type Puppeteer = {
  launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<Browser>;
};

/** A page function (source text): the visible buttons whose text matches a pattern. */
const visibleButtons =
  "((pattern) => [...document.querySelectorAll('button')].filter((b) => b.offsetParent && pattern.test(b.textContent.trim())))";
const clickButton = (pattern: RegExp) => `${visibleButtons}(${pattern})[0].click()`;

const SCREENSHOT = decodeURIComponent(new URL("../../docs/docs-screenshot.png", import.meta.url).pathname);

// As for xmllint and poppler: a newcomer's `npm test` needs no system package, so without
// Chromium the browser test is skipped with a warning; CI sets REQUIRE_CHROMIUM=1 (and
// installs Debian's chromium), so there a missing browser fails instead.
const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .filter((path): path is string => Boolean(path))
  .find((path) => spawnSync(path, ["--version"], { encoding: "utf8" }).status === 0);
const SKIP = chromium === undefined && !process.env.REQUIRE_CHROMIUM;
if (SKIP)
  console.warn("chromium not found: the /docs browser test is skipped (apt-get install -y chromium).");

const served = JSON.parse(readFileSync(join(PUBLIC_DIR, "v1/openapi.json"), "utf8"));
const summaries: string[] = Object.values(served.paths).flatMap((item) =>
  Object.values(item as Record<string, { summary: string }>).map((op) => op.summary),
);

describe.skipIf(SKIP)("GET /v1/openapi.json and GET /docs, as wrangler dev serves them", () => {
  let server: DevServer;
  beforeAll(async () => {
    server = await startDevServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it("GET /v1/openapi.json is the generated document, public (no key), readable from any origin", async () => {
    const res = await fetch(`${server.base}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual(served);
  });

  it("GET /docs is the reference page, public, allowed to reach its own origin only", async () => {
    const res = await fetch(`${server.base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).toContain('<script src="/docs/scalar.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("in Chromium, the operations render, a curl request example shows and Test Request works, with no request to another host", async () => {
    const puppeteer = (await import("puppeteer-core" as string)).default as Puppeteer;
    const browser = await puppeteer.launch({
      executablePath: chromium as string,
      headless: true,
      // Root in a container has no user namespace for Chromium's sandbox.
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      const foreign: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.origin !== server.base && url.protocol !== "data:") foreign.push(request.url());
      });
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(String(error)));

      await page.goto(`${server.base}/docs#tag/invoices/POST/v1/invoices`, {
        waitUntil: "networkidle0",
        timeout: 60_000,
      });
      await page.waitForFunction('document.body.innerText.includes("curl http")', { timeout: 30_000 });
      const text = (await page.evaluate("document.body.innerText")) as string;

      expect(text).toContain("Issue an invoice");
      expect(text).toContain("Create a customer");
      expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);
      // The request example of the operation in view, with the document's example body.
      expect(text).toContain(`curl ${server.base}/v1/invoices`);
      expect(text).toContain('"unit_price": "85.00"');
      await page.screenshot({ path: SCREENSHOT });

      // "Test Request" opens Scalar's API client, which sends straight to the API (no proxy).
      await page.goto(`${server.base}/docs#tag/health/GET/health`, {
        waitUntil: "networkidle0",
        timeout: 60_000,
      });
      await page.evaluate(clickButton(/^Test Request/));
      await page.waitForFunction(`${visibleButtons}(/^Send/).length > 0`, { timeout: 30_000 });
      await page.evaluate(clickButton(/^Send/));
      await page.waitForFunction('document.body.innerText.includes("200 OK")', { timeout: 30_000 });
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
