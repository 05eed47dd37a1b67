import type { TaxIdType, TaxRegimeId } from "../constants";
import { AEAT_VNIF_URL, aeatRegistry, censusIdentifiesByNif } from "./aeat";
import type { Registry } from "./registry";
import { sandboxRegistry } from "./sandbox";
import { viesRegistry } from "./vies";

/**
 * What a deployment adds to use the AEAT census in Live. Neither is in wrangler.toml: without
 * `AEAT_CERT` (an `[[mtls_certificates]]` binding holding a certificate AEAT accepts), Live
 * `es_nif` Tax IDs have `verification: null`. `AEAT_VNIF_URL` defaults to the endpoint for a
 * personal or representative certificate; a seal certificate needs `AEAT_VNIF_SEAL_URL`.
 */
export type AeatBindings = { AEAT_CERT?: Fetcher; AEAT_VNIF_URL?: string };

export type NamedRegistry = Registry & { readonly name: "sandbox" | "vies" | "aeat" };

export type RegistryRoute = {
  /** The caller's environment: false for Test mode. */
  live: boolean;
  /** The account's tax regime: `es_nif` has a registry on `es` accounts only. */
  taxRegime: TaxRegimeId;
  type: TaxIdType;
  env: Env & AeatBindings;
};

const SANDBOX: NamedRegistry = { name: "sandbox", ...sandboxRegistry };

/**
 * The registry that verifies a Tax ID, or null when none applies (compliance.md, "Tax ID
 * verification"): Test mode uses the sandbox, for `eu_vat` on every account and `es_nif` on
 * `es` accounts; Live uses VIES for `eu_vat`, and the AEAT census for `es_nif` on `es` accounts
 * when the deployment has the `AEAT_CERT` binding. `local`, and `es_nif` on `global` accounts,
 * have none.
 *
 * @example
 * registryFor({ live: true, taxRegime: "global", type: "eu_vat", env })?.name; // "vies"
 * registryFor({ live: true, taxRegime: "es", type: "es_nif", env }); // null without AEAT_CERT
 */
export function registryFor({ live, taxRegime, type, env }: RegistryRoute): NamedRegistry | null {
  if (type === "local" || (type === "es_nif" && taxRegime !== "es")) return null;
  if (!live) return SANDBOX;
  if (type === "eu_vat") return { name: "vies", ...viesRegistry() };
  if (!env.AEAT_CERT) return null;
  return { name: "aeat", ...aeatRegistry(env.AEAT_CERT, env.AEAT_VNIF_URL ?? AEAT_VNIF_URL) };
}

/**
 * Whether a Tax ID gets a verification when it is written: true → `pending` (and a message
 * for the queue), false → `verification: null`. It follows `registryFor`, with one more rule:
 * in Live the census identifies a natural person's NIF (DNI, NIE, K/L/M) only together with
 * the holder's name, which a Tax ID does not carry, so those have no verification. The value
 * is the normalised one, as stored.
 *
 * @example
 * hasRegistry({ live: true, taxRegime: "es", type: "es_nif", value: "B12345674", env }); // true with AEAT_CERT
 * hasRegistry({ live: true, taxRegime: "es", type: "es_nif", value: "12345678Z", env }); // false
 */
export function hasRegistry(route: RegistryRoute & { value: string }): boolean {
  const registry = registryFor(route);
  if (registry?.name === "aeat") return censusIdentifiesByNif(route.value);
  return registry !== null;
}
