import type { Context } from "hono";
import { etag, RETAINED_304_HEADERS } from "hono/etag";
import type { AppEnv } from "../http/context";
import { nowMs } from "../lib/clock";
import { CATALOG_KV_CACHE_SECONDS, type CatalogMetadata, catalogDocuments, etagOf } from "./documents";

export { etagOf };

/** Browsers and CDNs may reuse a catalog document this long. */
export const CATALOG_MAX_AGE_SECONDS = 300;
// Per-isolate copy of what KV holds, so a hot catalog costs no KV read per request.
const MEMORY_TTL_MS = 60_000;

type Doc = { body: string; etag: string };
const memory = new Map<string, Doc & { expires: number }>();

/** Forgets the per-isolate copies (tests, and after a publish in the same isolate). */
export function clearCatalogMemory(): void {
  memory.clear();
}

/**
 * The document under `key`, from KV byte for byte (what `npm run catalog:publish` wrote).
 * On a miss it is built from the bundled catalog and written back for the next reader.
 */
async function load(c: Context<AppEnv>, key: string): Promise<Doc> {
  const cached = memory.get(key);
  if (cached && cached.expires > nowMs()) return cached;

  const kv = c.env.CATALOG;
  const stored = await kv.getWithMetadata<Partial<CatalogMetadata>>(key, {
    cacheTtl: CATALOG_KV_CACHE_SECONDS,
  });
  let doc: Doc;
  if (stored.value !== null) {
    doc = { body: stored.value, etag: stored.metadata?.etag ?? (await etagOf(stored.value)) };
  } else {
    const body = catalogDocuments().get(key);
    if (body === undefined) throw new Error(`no catalog document ${key}`);
    doc = { body, etag: await etagOf(body) };
    c.executionCtx.waitUntil(writeBack(kv, key, doc));
  }
  memory.set(key, { ...doc, expires: nowMs() + MEMORY_TTL_MS });
  return doc;
}

/**
 * Writes the bundled document back only while KV still has none under `key`, so a published
 * catalog, which may be newer than this Worker's bundle, is never replaced by it.
 *
 * KV has no compare-and-set, so "still has none" is a second read just before the put. Two
 * windows remain: a publish that lands between that read and the put is overwritten, and a
 * location that cached the miss answers the second read with it too, for up to
 * CATALOG_KV_CACHE_SECONDS after a key's first publish. `npm run catalog:publish` closes
 * both: it waits that long (remote), reads its documents back and publishes again any that
 * a write-back replaced. A key that already holds a document is never read as a miss, so a
 * publish over an existing catalog is not exposed at all.
 */
async function writeBack(kv: KVNamespace, key: string, doc: Doc): Promise<void> {
  if ((await kv.get(key)) !== null) return;
  const metadata: CatalogMetadata = { etag: doc.etag, source: "bundled" };
  await kv.put(key, doc.body, { metadata });
}

/**
 * `If-None-Match` → 304 (`hono/etag`, comparing the stored ETag, so nothing is hashed per
 * request). A cross-origin revalidation needs the CORS headers on the 304 too.
 */
export const conditional = etag({
  retainedHeaders: [...RETAINED_304_HEADERS, "access-control-allow-origin", "access-control-expose-headers"],
});

/** Serves a catalog document with its ETag. */
export async function serveCatalog(c: Context<AppEnv>, key: string): Promise<Response> {
  const doc = await load(c, key);
  return c.body(doc.body, 200, {
    ETag: doc.etag,
    "Cache-Control": `public, max-age=${CATALOG_MAX_AGE_SECONDS}`,
    "Content-Type": "application/json; charset=UTF-8",
  });
}
