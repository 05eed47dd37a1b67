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
