import { describe, expect, it } from "vitest";
import * as entry from "../../src/index";
import * as jobs from "../../src/jobs";

describe("the Worker entry modules", () => {
  it("export only the default handler: workerd treats every named export as an entrypoint", () => {
    expect(Object.keys(entry)).toEqual(["default"]);
    expect(Object.keys(jobs)).toEqual(["default"]);
  });

  it("the API Worker handles fetch only; the background Worker handles queue and scheduled", () => {
    expect(Object.keys(entry.default)).toEqual(["fetch"]);
    expect(Object.keys(jobs.default).sort()).toEqual(["queue", "scheduled"]);
  });
});

describe("development code stays out of the production Worker", () => {
  it("the production app has no /__bench route, so a benchmark floor is a 404 there", async () => {
    const { app } = await import("../../src/app");
    expect(app.routes.filter((r) => r.path.startsWith("/__bench"))).toEqual([]);
    const res = await app.request("/__bench/static-catalog", {}, { APP_ENV: "development" });
    expect(res.status).toBe(404);
  });

  it("the development entry serves the floors", async () => {
    const dev = await import("../../src/dev/index");
    const res = await dev.default.fetch(new Request("http://x/__bench/static-catalog"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "es", object: "tax_regime" });
  });

  it("the development entry answers the catalog floor before the app, with the route's bytes and ETag", async () => {
    const dev = await import("../../src/dev/index");
    const { catalogDocuments, etagOf, CATALOG_KEYS } = await import("../../src/tax/documents");
    const body = catalogDocuments().get(CATALOG_KEYS.regime("es")) as string;
    const res = await dev.default.fetch(
      new Request("http://x/__bench/floor/catalog"),
      {} as Env,
      {} as ExecutionContext,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(await etagOf(body));
    expect(res.headers.has("request-id")).toBe(false);
    expect(await res.text()).toBe(body);
  });
});
