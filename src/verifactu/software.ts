import { config, PLACEHOLDER_NIF } from "../config";
import type { SistemaInformatico } from "../contracts/verifactu-record";
import { checkSpanishNif } from "../tax-ids/es-nif";
import type { DeclarationInput } from "./declaration-document";

/**
 * Facts of this system, not settings: it only works as VERI*FACTU (it sends every record and
 * has no other mode), and one multi-tenant installation serves every account, so it can be and
 * is used for several taxpayers (Orden HAC/1177/2024 art. 15.1.e, f; annex 2.6).
 */
const USES = {
  TipoUsoPosibleSoloVerifactu: "S",
  TipoUsoPosibleMultiOT: "S",
  IndicadorMultiplesOT: "S",
} as const;

/**
 * The development placeholder (`npm start`, Test records of a deployment without an identity):
 * `00000000T` is a well-formed DNI of nobody, refused in production (src/config.ts).
 */
export const SOFTWARE: SistemaInformatico = {
  NombreRazon: "Invoicing API (development placeholder)",
  NIF: PLACEHOLDER_NIF,
  NombreSistemaInformatico: "invoicing-api",
  IdSistemaInformatico: "IA",
  Version: "0.1.0",
  NumeroInstalacion: "cloud-1",
  ...USES,
};

const PLACEHOLDER: DeclarationInput = {
  software: SOFTWARE,
  address: "(development placeholder)",
  place: "(development placeholder)",
  date: "",
  placeholder: true,
};

const configured = new WeakMap<object, DeclarationInput | null>();

/**
 * The configured identity (the `VERIFACTU_` [vars], src/config.ts), or null when unset. Its NIF
 * must pass the Spanish NIF check, control character included: a wrong one is a configuration
 * error, thrown as config.ts throws its own.
 */
function configuredIdentity(env: Env): DeclarationInput | null {
  let identity = configured.get(env);
  if (identity === undefined) {
    const v = config(env).verifactuSoftware;
    const nif = v && checkSpanishNif(v.software.NIF);
    if (nif && !nif.ok) {
      throw new Error(
        `Invalid configuration: VERIFACTU_PRODUCER_NIF: not a valid Spanish NIF (${nif.reason})`,
      );
    }
    identity = v && { ...v, software: { ...v.software, ...USES }, placeholder: false };
    configured.set(env, identity);
  }
  return identity;
}

/**
 * The identity the declaración responsable states: the configured one; under APP_ENV
 * development without one, the placeholder; in production without one, null.
 */
export function declarationInputFor(env: Env): DeclarationInput | null {
  return configuredIdentity(env) ?? (config(env).development ? PLACEHOLDER : null);
}

/**
 * The `SistemaInformatico` of a record of this environment. Test (records go to the in-Worker
 * sandbox): the configured identity, else the placeholder. Live: the configured identity; null
 * in production without one (Live is not ready: nothing may reach AEAT under a placeholder),
 * the placeholder under APP_ENV development so that local Live flows work.
 *
 * @example
 * softwareFor(env, true)?.NIF; // the producer's NIF, or undefined when none is configured
 */
export function softwareFor(env: Env, live: boolean): SistemaInformatico | null {
  if (!live) return configuredIdentity(env)?.software ?? SOFTWARE;
  return declarationInputFor(env)?.software ?? null;
}
