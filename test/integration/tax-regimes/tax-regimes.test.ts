import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CATALOG_KEYS, catalogDocuments } from "../../../src/tax/documents";
import { clearCatalogMemory, etagOf } from "../../../src/tax/serve";
import { expectStatus, request } from "../../helpers/api";

async function emptyKv() {
  for (const key of catalogDocuments().keys()) await env.CATALOG.delete(key);
  clearCatalogMemory();
}

describe("GET /v1/tax-regimes", () => {
  beforeEach(emptyKv);

  it("the list needs no API key and holds global then es, with has_more false", async () => {
    const res = await request("GET", "/v1/tax-regimes");
    expectStatus(res, 200);
    expect(res.body.object).toBe("list");
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((r) => r.id)).toEqual(["global", "es"]);
  });

  it("global has an empty taxes array: custom taxes are supplied at issuance", async () => {
    const res = await request("GET", "/v1/tax-regimes/global");
    expectStatus(res, 200);
    expect(res.body).toEqual({ id: "global", object: "tax_regime", taxes: [] });
  });

  it("es returns every effective-dated rule version with the seed's fields", async () => {
    const res = await request("GET", "/v1/tax-regimes/es");
    expectStatus(res, 200);
    expect(res.body.object).toBe("tax_regime");
    const iva = res.body.taxes.find((t) => t.tax === "iva");
    expect(iva).toMatchObject({ name: expect.any(String), effect: "added" });
    const general = iva!.rules.filter((r) => r.rule === "general");
    expect(general.map((r) => r.rate)).toEqual(["15%", "16%", "18%", "21%"]);
    expect(Object.keys(general[3]!).sort()).toEqual(
      [
        "authority_code",
        "description",
        "effective_from",
        "effective_until",
        "legal_reference",
        "rate",
        "rule",
        "treatment",
      ].sort(),
    );
    const irpf = res.body.taxes.find((t) => t.tax === "irpf");
    expect(irpf!.effect).toBe("withheld");
  });

  it("an unknown regime is a 404 resource_missing", async () => {
    const res = await request("GET", "/v1/tax-regimes/fr");
    expectStatus(res, 404);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "resource_missing" });
    expect(res.body.error.request_id).toBe(res.headers.get("request-id"));
  });

  it.each([
    ["an unknown key", "Bearer sk_test_doesnotexist123"],
    ["a malformed header", "Basic Zm9vOmJhcg=="],
  ])("a bad Authorization header (%s) is ignored", async (_, authorization) => {
    const res = await request("GET", "/v1/tax-regimes/es", undefined, { headers: { authorization } });
    expectStatus(res, 200);
  });
});

describe("the catalog is served from KV", () => {
  beforeEach(emptyKv);

  it("the catalog is served byte for byte from KV, so a published fix needs no deploy", async () => {
    // Valid, but spaced as no serializer of ours writes it: only KV's bytes read back like this.
    const published = '{ "id": "es", "object": "tax_regime", "taxes": [] }';
    await env.CATALOG.put(CATALOG_KEYS.regime("es"), published, {
      metadata: { etag: await etagOf(published) },
    });
    const res = await request("GET", "/v1/tax-regimes/es");
    expectStatus(res, 200);
    expect(res.text).toBe(published);
    expect(res.headers.get("etag")).toBe(await etagOf(published));
  });

  it("on a KV miss the bundled catalog is served and written back to KV", async () => {
    const res = await request("GET", "/v1/tax-regimes");
    expectStatus(res, 200);
    const expected = catalogDocuments().get(CATALOG_KEYS.list);
    expect(res.text).toBe(expected);
    await vi.waitFor(async () => expect(await env.CATALOG.get(CATALOG_KEYS.list)).toBe(expected));
  });
});

describe("caching headers", () => {
  beforeEach(emptyKv);

  it("the ETag is strong: the quoted SHA-256 of the exact bytes", async () => {
    const res = await request("GET", "/v1/tax-regimes/es");
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(res.text));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    expect(res.headers.get("etag")).toBe(`"${hex}"`);
  });

  it("responses are publicly cacheable", async () => {
    const res = await request("GET", "/v1/tax-regimes");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it.each([
    ["the same ETag", (etag: string) => etag],
    ["the weak form of the ETag", (etag: string) => `W/${etag}`],
    ["a list containing the ETag", (etag: string) => `"other", ${etag}`],
    ["*", () => "*"],
  ])("If-None-Match with %s gives a 304 with no body", async (_, header) => {
    const first = await request("GET", "/v1/tax-regimes/es");
    const etag = first.headers.get("etag") as string;
    const res = await request("GET", "/v1/tax-regimes/es", undefined, {
      headers: { "if-none-match": header(etag) },
    });
    expectStatus(res, 304);
    expect(res.text).toBe("");
    expect(res.headers.get("etag")).toBe(etag);
  });

  it("If-None-Match with another ETag gives the document", async () => {
    const res = await request("GET", "/v1/tax-regimes/es", undefined, {
      headers: { "if-none-match": '"stale"' },
    });
    expectStatus(res, 200);
  });
});

describe("CORS", () => {
  it("browsers of any origin may read the catalog", async () => {
    const res = await request("GET", "/v1/tax-regimes/es", undefined, {
      headers: { origin: "https://shop.example" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
  });

  it("a cross-origin revalidation (304) and an unknown regime (404) carry the CORS headers too", async () => {
    const first = await request("GET", "/v1/tax-regimes/es", undefined, {
      headers: { origin: "https://shop.example" },
    });
    expect(first.headers.get("access-control-expose-headers")).toBe("ETag,Request-Id");
    expect(first.headers.get("request-id")).toMatch(/^req_/);
    const revalidated = await request("GET", "/v1/tax-regimes/es", undefined, {
      headers: { origin: "https://shop.example", "if-none-match": first.headers.get("etag") as string },
    });
    expectStatus(revalidated, 304);
    const missing = await request("GET", "/v1/tax-regimes/zz", undefined, {
      headers: { origin: "https://shop.example" },
    });
    expectStatus(missing, 404);
    for (const res of [revalidated, missing]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toBe("ETag,Request-Id");
      expect(res.headers.get("request-id")).toMatch(/^req_/);
    }
  });

  it("a preflight request is answered with the allowed methods and headers", async () => {
    const res = await request("OPTIONS", "/v1/tax-regimes/es", undefined, {
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
    // Exactly what hono/cors answered before the catalog set its headers itself.
    expect(Object.fromEntries([...res.headers].filter(([name]) => name !== "request-id"))).toEqual({
      "access-control-allow-headers": "If-None-Match,Authorization",
      "access-control-allow-methods": "GET,HEAD,OPTIONS",
      "access-control-allow-origin": "*",
      "access-control-expose-headers": "ETag,Request-Id",
      "access-control-max-age": "86400",
      vary: "Access-Control-Request-Headers",
    });
    expect(res.text).toBe("");
  });
});
