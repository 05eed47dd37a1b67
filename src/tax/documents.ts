import { sha256Hex } from "../lib/crypto";
import { TAX_REGIMES } from "./catalog";
import type { TaxRegimeId } from "./types";

/**
 * KV keys of the published catalog. The version segment changes only with the shape of the
 * documents, so a catalog fix is a new `npm run catalog:publish`, not a new key.
 */
export const CATALOG_KEYS = {
  list: "tax-regimes/v1/list",
  regime: (id: TaxRegimeId) => `tax-regimes/v1/${id}`,
};

/**
 * How long a KV location may answer a catalog read from its cache, a miss included (KV's
 * default, stated because `npm run catalog:publish` waits it out before it checks its writes).
 */
export const CATALOG_KV_CACHE_SECONDS = 60;

/**
 * The KV metadata of a catalog document: its ETag, and who wrote it. `published` comes from
 * `npm run catalog:publish` (with the time of the publish); `bundled` is a Worker's write-back
 * of its own copy after a KV miss, which must never replace a published document.
 */
export type CatalogMetadata = {
  etag: string;
  source?: "published" | "bundled";
  published_at?: string;
};

/** Every catalog document, serialized exactly as the API returns it. */
export function catalogDocuments(): Map<string, string> {
  const docs = new Map<string, string>();
  docs.set(
    CATALOG_KEYS.list,
    JSON.stringify({ object: "list", url: "/v1/tax-regimes", has_more: false, data: TAX_REGIMES }),
  );
  for (const regime of TAX_REGIMES) docs.set(CATALOG_KEYS.regime(regime.id), JSON.stringify(regime));
  return docs;
}

/** A strong ETag: the quoted SHA-256 of the exact bytes served. */
export async function etagOf(body: string): Promise<string> {
  return `"${await sha256Hex(body)}"`;
}

/**
 * What `npm run catalog:publish` writes: every document with its published metadata (the
 * same ETag the Worker would compute), ready for `wrangler kv bulk put`.
 *
 * @example
 * const entries = await publishedEntries(new Date().toISOString());
 */
export async function publishedEntries(publishedAt: string) {
  return Promise.all(
    [...catalogDocuments()].map(async ([key, value]) => {
      const metadata: CatalogMetadata = {
        etag: await etagOf(value),
        source: "published",
        published_at: publishedAt,
      };
      return { key, value, metadata };
    }),
  );
}
