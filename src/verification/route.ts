import type { TaxIdType, TaxRegimeId } from "../constants";
import { censusIdentifiesByNif } from "./aeat";

// Which registry verifies a Tax ID, decided without building one: the API Worker asks only
// this (`hasRegistry`), so the registry clients stay out of its bundle (src/verification/index.ts
// builds them for the consumer).

/**
 * What a deployment adds to use the AEAT census in Live. Neither is in wrangler.toml: without
 * `AEAT_CERT` (an `[[mtls_certificates]]` binding holding a certificate AEAT accepts), Live
 * `es_nif` Tax IDs have `verification: null`. `AEAT_VNIF_URL` defaults to the endpoint for a
 * personal or representative certificate; a seal certificate needs `AEAT_VNIF_SEAL_URL`.
 */
export type AeatBindings = { AEAT_CERT?: Fetcher; AEAT_VNIF_URL?: string };

export type RegistryName = "sandbox" | "vies" | "aeat";

export type RegistryRoute = {
  /** The caller's environment: false for Test mode. */
  live: boolean;
  /** The account's tax regime: `es_nif` has a registry on `es` accounts only. */
  taxRegime: TaxRegimeId;
  type: TaxIdType;
  env: Env & AeatBindings;
};

/**
 * The registry that verifies a Tax ID, or null when none applies (compliance.md, "Tax ID
 * verification"): Test mode uses the sandbox, for `eu_vat` on every account and `es_nif` on
 * `es` accounts; Live uses VIES for `eu_vat`, and the AEAT census for `es_nif` on `es` accounts
 * when the deployment has the `AEAT_CERT` binding. `local`, and `es_nif` on `global` accounts,
 * have none.
 *
 * @example
 * registryName({ live: true, taxRegime: "global", type: "eu_vat", env }); // "vies"
 * registryName({ live: true, taxRegime: "es", type: "es_nif", env }); // null without AEAT_CERT
 */
export function registryName({ live, taxRegime, type, env }: RegistryRoute): RegistryName | null {
  if (type === "local" || (type === "es_nif" && taxRegime !== "es")) return null;
  if (!live) return "sandbox";
  if (type === "eu_vat") return "vies";
  return env.AEAT_CERT ? "aeat" : null;
}

/**
 * Whether a Tax ID gets a verification when it is written: true → `pending` (and a message
 * for the queue), false → `verification: null`. It follows `registryName`, with one more rule:
 * in Live the census identifies a natural person's NIF (DNI, NIE, K/L/M) only together with
 * the holder's name, which a Tax ID does not carry, so those have no verification. The value
 * is the normalised one, as stored.
 *
 * @example
 * hasRegistry({ live: true, taxRegime: "es", type: "es_nif", value: "B12345674", env }); // true with AEAT_CERT
 * hasRegistry({ live: true, taxRegime: "es", type: "es_nif", value: "12345678Z", env }); // false
 */
export function hasRegistry(route: RegistryRoute & { value: string }): boolean {
  const name = registryName(route);
  if (name === "aeat") return censusIdentifiesByNif(route.value);
  return name !== null;
}
