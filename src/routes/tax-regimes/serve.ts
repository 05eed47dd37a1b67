import type { Context } from "hono";
import { etag, RETAINED_304_HEADERS } from "hono/etag";
import type { AppEnv } from "../../env";
import { nowMs } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { catalogDocuments } from "../../tax/documents";

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

/** A strong ETag: the SHA-256 of the exact bytes served. */
export async function etagOf(body: string): Promise<string> {
  return `"${await sha256Hex(body)}"`;
}

/**
 * The document under `key`, from KV byte for byte (what `npm run catalog:publish` wrote).
 * On a miss it is built from the bundled catalog and written back for the next reader.
 */
async function load(c: Context<AppEnv>, key: string): Promise<Doc> {
  const cached = memory.get(key);
  if (cached && cached.expires > nowMs()) return cached;

  const stored = await c.env.CATALOG.getWithMetadata<{ etag?: string }>(key);
  let doc: Doc;
  if (stored.value !== null) {
    doc = { body: stored.value, etag: stored.metadata?.etag ?? (await etagOf(stored.value)) };
  } else {
    const body = catalogDocuments().get(key);
    if (body === undefined) throw new Error(`no catalog document ${key}`);
    doc = { body, etag: await etagOf(body) };
    c.executionCtx.waitUntil(c.env.CATALOG.put(key, body, { metadata: { etag: doc.etag } }));
  }
  memory.set(key, { ...doc, expires: nowMs() + MEMORY_TTL_MS });
  return doc;
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
