import type { CertificateBinding } from "../aeat/http";
import { AEAT_VERIFACTU_URL, aeatRecordRegistry } from "./aeat";
import type { RecordRegistry } from "./registry";
import { sandboxRecordRegistry } from "./sandbox";
import { softwareFor } from "./software";

/**
 * What a deployment adds to register Live records with AEAT: the `AEAT_CERT` mTLS binding (the
 * same certificate as the census check) and, for a seal certificate or AEAT's pre-production,
 * `AEAT_VERIFACTU_URL`. Without the binding, Live records are generated, chained and kept
 * `pending`, and nothing is sent.
 */
export type VerifactuBindings = { AEAT_CERT?: CertificateBinding; AEAT_VERIFACTU_URL?: string };

/**
 * Where an environment's records go (compliance.md): the sandbox in Test mode; AEAT in Live
 * when the deployment has its certificate and the software identity (records must never
 * reach AEAT under a placeholder), else nowhere (null).
 *
 * @example
 * recordRegistryFor(env, false).name; // "sandbox"
 */
export function recordRegistryFor(env: Env & VerifactuBindings, live: boolean): RecordRegistry | null {
  if (!live) return sandboxRecordRegistry;
  if (!env.AEAT_CERT || !canSendLive(env)) return null;
  return aeatRecordRegistry(env.AEAT_CERT, env.AEAT_VERIFACTU_URL ?? AEAT_VERIFACTU_URL);
}

/** Whether Live records can be sent at all (the sweep leaves them alone otherwise). */
export function canSendLive(env: Env & VerifactuBindings): boolean {
  return Boolean(env.AEAT_CERT) && softwareFor(env, true) !== null;
}
