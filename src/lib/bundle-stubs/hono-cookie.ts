/**
 * Stands in for Hono's cookie helper in the API Worker's build only (wrangler.toml [alias]):
 * Hono's validator imports it for `cookie` validation targets, which no route of this API uses
 * (it takes no cookies). Any other use throws.
 */
export function getCookie(): never {
  throw new Error("Cookies are not part of the API Worker's build (wrangler.toml [alias])");
}
