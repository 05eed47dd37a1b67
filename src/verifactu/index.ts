import type { CertificateBinding } from "../aeat/http";
import { AEAT_VERIFACTU_URL, aeatRecordRegistry } from "./aeat";
import type { RecordRegistry } from "./registry";
import { sandboxRecordRegistry } from "./sandbox";

/**
 * What a deployment adds to register Live records with AEAT: the `AEAT_CERT` mTLS binding (the
 * same certificate as the census check) and, for a seal certificate or AEAT's pre-production,
 * `AEAT_VERIFACTU_URL`. Without the binding, Live records are generated, chained and kept
 * `pending`, and nothing is sent.
 */
export type VerifactuBindings = { AEAT_CERT?: CertificateBinding; AEAT_VERIFACTU_URL?: string };

/**
 * Where an environment's records go (compliance.md): the sandbox in Test mode; AEAT in Live
 * when the deployment has its certificate, else nowhere (null).
 *
 * @example
 * recordRegistryFor(env, false).name; // "sandbox"
 */
export function recordRegistryFor(env: Env & VerifactuBindings, live: boolean): RecordRegistry | null {
  if (!live) return sandboxRecordRegistry;
  if (!env.AEAT_CERT) return null;
  return aeatRecordRegistry(env.AEAT_CERT, env.AEAT_VERIFACTU_URL ?? AEAT_VERIFACTU_URL);
}

/** Whether Live records can be sent at all (the sweep leaves them alone otherwise). */
export const canSendLive = (env: Env & VerifactuBindings): boolean => Boolean(env.AEAT_CERT);
