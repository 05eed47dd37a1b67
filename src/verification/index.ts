import { AEAT_VNIF_URL, aeatRegistry } from "./aeat";
import type { Registry } from "./registry";
import { type RegistryName, type RegistryRoute, registryName } from "./route";
import { sandboxRegistry } from "./sandbox";
import { viesRegistry } from "./vies";

export type NamedRegistry = Registry & { readonly name: RegistryName };

/**
 * The registry client that verifies a Tax ID, or null when none applies: the one
 * `registryName` names (src/verification/route.ts), built for the consumer.
 *
 * @example
 * registryFor({ live: true, taxRegime: "global", type: "eu_vat", env })?.name; // "vies"
 */
export function registryFor(route: RegistryRoute): NamedRegistry | null {
  const name = registryName(route);
  const { env } = route;
  if (name === "sandbox") return { name, ...sandboxRegistry };
  if (name === "vies") return { name, ...viesRegistry() };
  if (name === "aeat" && env.AEAT_CERT) {
    return { name, ...aeatRegistry(env.AEAT_CERT, env.AEAT_VNIF_URL ?? AEAT_VNIF_URL) };
  }
  return null;
}
