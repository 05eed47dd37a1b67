/**
 * The public catalog's KV write-back: on a KV miss the Worker serves its bundled copy and
 * writes it back, but never over a published catalog, which may be newer than its bundle.
 * Runs against the real local KV binding; a stale read is a wrapper that answers one read
 * from before the publish, as a KV location that has not seen it yet does.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import worker from "../../../src/index";
import {
  CATALOG_KEYS,
  type CatalogMetadata,
  catalogDocuments,
  publishedEntries,
} from "../../../src/tax/documents";
import { clearCatalogMemory, etagOf } from "../../../src/tax/serve";

const KEY = CATALOG_KEYS.regime("es");
const NEWER = '{"id":"es","object":"tax_regime","taxes":[],"note":"a fix published after this deploy"}';

async function publishNewer(): Promise<void> {
  const metadata: CatalogMetadata = {
    etag: await etagOf(NEWER),
    source: "published",
    published_at: new Date().toISOString(),
  };
  await env.CATALOG.put(KEY, NEWER, { metadata });
}

/** The CATALOG binding, whose first read misses and `onMiss` runs as it answers (a publish landing then). */
function staleOnce(onMiss: () => Promise<void>): KVNamespace {
  let first = true;
  const miss = async () => {
    first = false;
    await onMiss();
    return { value: null, metadata: null, cacheStatus: null };
  };
  return new Proxy(env.CATALOG, {
    get(target, prop) {
      if (prop === "getWithMetadata" && first) return miss;
      if (prop === "get" && first) return async () => (await miss()).value;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** GET `path` through the Worker with `catalog` as its KV binding, background work included. */
async function get(path: string, catalog: KVNamespace = env.CATALOG) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://api.test${path}`), { ...env, CATALOG: catalog }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, text, etag: res.headers.get("etag") };
}

beforeEach(async () => {
  for (const key of catalogDocuments().keys()) await env.CATALOG.delete(key);
  clearCatalogMemory();
});

describe("the KV write-back never overwrites a published catalog", () => {
  it("a catalog published between the Worker's KV miss and its write-back is not overwritten", async () => {
    const res = await get("/v1/tax-regimes/es", staleOnce(publishNewer));
    // The request itself saw the miss, so it answers with the bundled copy.
    expect(res.text).toBe(catalogDocuments().get(KEY));
    const stored = await env.CATALOG.getWithMetadata<CatalogMetadata>(KEY);
    expect(stored.value).toBe(NEWER);
    expect(stored.metadata).toMatchObject({ source: "published", etag: await etagOf(NEWER) });
  });

  it("a published catalog is served as published and left as it is", async () => {
    await publishNewer();
    const before = await env.CATALOG.getWithMetadata(KEY);
    const res = await get("/v1/tax-regimes/es");
    expect(res.text).toBe(NEWER);
    expect(res.etag).toBe(await etagOf(NEWER));
    expect(await env.CATALOG.getWithMetadata(KEY)).toEqual(before);
  });

  it("with KV still empty the bundled copy is written back, marked as bundled", async () => {
    const res = await get("/v1/tax-regimes/es");
    expect(res.status).toBe(200);
    const stored = await env.CATALOG.getWithMetadata<CatalogMetadata>(KEY);
    expect(stored.value).toBe(catalogDocuments().get(KEY));
    expect(stored.metadata).toEqual({ etag: res.etag, source: "bundled" });
  });

  it("catalog:publish writes every document with the Worker's ETag, marked as published", async () => {
    const publishedAt = "2026-11-23T10:00:00.000Z";
    const entries = await publishedEntries(publishedAt);
    expect(entries.map((e) => e.key).sort()).toEqual([...catalogDocuments().keys()].sort());
    for (const { key, value, metadata } of entries) {
      expect(value).toBe(catalogDocuments().get(key));
      expect(metadata).toEqual({ etag: await etagOf(value), source: "published", published_at: publishedAt });
    }
  });
});
